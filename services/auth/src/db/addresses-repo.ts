import type { Knex } from '@flatship/kit';
import { fromTx } from '@flatship/kit';
import { type AddressCheck, isId } from '@flatship/proto';
import type { AddressesRepo, AddressFields, AddressRecord, Tx, WriteAddressResult } from '../domain/ports';
import { uniqueViolation } from './pg-errors';

interface AddressRow {
  id: string;
  user_id: string;
  address_id: string;
  name: string;
  company: string;
  phone: string;
  street: string;
  street2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  address_check: AddressCheck | null;
  verified: boolean;
  created_at: Date;
  updated_at: Date;
}

export const ADDRESS_ID_UNIQUE = 'addresses_user_address_id_key';

const toRecord = (r: AddressRow): AddressRecord => ({
  id: r.id,
  userId: r.user_id,
  addressId: r.address_id,
  name: r.name,
  company: r.company,
  phone: r.phone,
  street: r.street,
  street2: r.street2,
  city: r.city,
  state: r.state,
  zip: r.zip,
  country: r.country,
  check: r.address_check,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toColumns = (f: AddressFields) => ({
  address_id: f.addressId,
  name: f.name,
  company: f.company,
  phone: f.phone,
  street: f.street,
  street2: f.street2,
  city: f.city,
  state: f.state,
  zip: f.zip,
  country: f.country,
  // A changed address is checked again, or is unchecked: an old answer never stays with a new address.
  address_check: f.check ?? null,
  verified: f.check?.verdict === 'deliverable',
  checked_at: f.check ? new Date() : null,
});

export function createAddressesRepo(db: Knex): AddressesRepo {
  const q = (tx?: Tx) => (fromTx(tx) ?? db)<AddressRow>('addresses');

  /**
   * Runs one write in a savepoint (or a transaction of its own), so a taken
   * label does not poison the caller's transaction; the unique index, not an
   * earlier read, decides between two writers racing for one label.
   */
  async function write(
    tx: Tx | undefined,
    run: (k: Knex.Transaction) => Promise<AddressRow[]>,
  ): Promise<WriteAddressResult | null> {
    try {
      const rows = await (fromTx(tx) ?? db).transaction(run);
      return rows[0] ? { ok: true, address: toRecord(rows[0]) } : null;
    } catch (e) {
      if (uniqueViolation(e) === ADDRESS_ID_UNIQUE) return { ok: false, conflict: 'addressId' };
      throw e;
    }
  }

  return {
    async listByUser(userId, tx) {
      if (!isId(userId)) return [];
      const rows = await q(tx)
        .where({ user_id: userId })
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
      return rows.map(toRecord);
    },
    async countByUser(userId, tx) {
      if (!isId(userId)) return 0;
      const row = await q(tx).where({ user_id: userId }).count<{ count: string }[]>('* as count').first();
      return Number(row?.count ?? 0);
    },
    async insert(userId, fields, tx) {
      const result = await write(tx, (k) =>
        k<AddressRow>('addresses')
          .insert({ user_id: userId, ...toColumns(fields) })
          .returning('*'),
      );
      if (!result) throw new Error('insert returned no row');
      return result;
    },
    async update(userId, id, fields, tx) {
      if (!isId(userId) || !isId(id)) return null;
      return write(tx, (k) =>
        k<AddressRow>('addresses')
          .where({ id, user_id: userId })
          .update({ ...toColumns(fields), updated_at: k.fn.now() })
          .returning('*'),
      );
    },
    async delete(userId, id, tx) {
      if (!isId(userId) || !isId(id)) return false;
      return (await q(tx).where({ id, user_id: userId }).delete()) > 0;
    },
  };
}
