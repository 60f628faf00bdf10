import type { Knex } from '@flatship/kit';
import { fromTx } from '@flatship/kit';
import type { ReferralBonusSide, ReferralBonusWithheldReason } from '@flatship/proto';
import type { ReferralBonusDecision, ReferralBonusRepo, ReferralBonusSettings, Tx } from '../domain/ports';

interface SettingsRow {
  referrer_bonus_cents: number;
  referred_bonus_cents: number;
  minimum_deposit_cents: number;
  updated_at: Date | null;
  updated_by: string | null;
}

const toSettings = (r: SettingsRow): ReferralBonusSettings => ({
  referrerBonusCents: r.referrer_bonus_cents,
  referredBonusCents: r.referred_bonus_cents,
  minimumDepositCents: r.minimum_deposit_cents,
  updatedAt: r.updated_at,
  updatedBy: r.updated_by,
});

interface DecisionRow {
  referred_user_id: string;
  side: ReferralBonusSide;
  beneficiary_id: string;
  status: 'credited' | 'withheld';
  reason: ReferralBonusWithheldReason | null;
  // bigint columns arrive as strings from pg.
  amount_cents: string;
  invoice_id: string;
  ledger_entry_id: string | null;
  decided_at: Date;
}

const toDecision = (r: DecisionRow): ReferralBonusDecision => ({
  referredUserId: r.referred_user_id,
  side: r.side,
  beneficiaryId: r.beneficiary_id,
  status: r.status,
  reason: r.reason,
  amountCents: Number(r.amount_cents),
  invoiceId: r.invoice_id,
  ledgerEntryId: r.ledger_entry_id,
  decidedAt: r.decided_at,
});

const SETTINGS_COLUMNS = [
  'referrer_bonus_cents',
  'referred_bonus_cents',
  'minimum_deposit_cents',
  'updated_at',
  'updated_by',
] as const;

/** The referral bonus settings (one row, migration 0005 creates it) and the decision per referred user and side. */
export function createReferralBonusRepo(db: Knex): ReferralBonusRepo {
  const on = (tx?: Tx) => fromTx(tx) ?? db;
  const needTx = (tx: Tx) => {
    const trx = fromTx(tx);
    if (!trx) throw new Error('this write must run inside a transaction');
    return trx;
  };

  return {
    async getSettings(tx) {
      const row = await on(tx)('referral_bonus_settings').first(SETTINGS_COLUMNS);
      if (!row) throw new Error('referral_bonus_settings has no row: migration 0005 has not run');
      return toSettings(row as SettingsRow);
    },

    async setSettings(settings, adminId, at, tx) {
      const trx = needTx(tx);
      const [row] = (await trx('referral_bonus_settings')
        .update({
          referrer_bonus_cents: settings.referrerBonusCents,
          referred_bonus_cents: settings.referredBonusCents,
          minimum_deposit_cents: settings.minimumDepositCents,
          updated_at: at,
          updated_by: adminId,
        })
        .returning(SETTINGS_COLUMNS)) as SettingsRow[];
      await trx('referral_bonus_settings_changes').insert({
        admin_id: adminId,
        referrer_bonus_cents: settings.referrerBonusCents,
        referred_bonus_cents: settings.referredBonusCents,
        minimum_deposit_cents: settings.minimumDepositCents,
        changed_at: at,
      });
      if (!row) throw new Error('referral_bonus_settings has no row: migration 0005 has not run');
      return toSettings(row);
    },

    async claim(decision, at, tx) {
      // The primary key settles concurrent claims: a second insert waits for the first transaction, then
      // does nothing once it has committed.
      const inserted = await needTx(tx)('referral_bonuses')
        .insert({
          referred_user_id: decision.referredUserId,
          side: decision.side,
          beneficiary_id: decision.beneficiaryId,
          status: decision.status,
          reason: decision.reason,
          amount_cents: decision.amountCents,
          invoice_id: decision.invoiceId,
          decided_at: at,
        })
        .onConflict(['referred_user_id', 'side'])
        .ignore()
        .returning('side');
      return inserted.length === 1;
    },

    async setLedgerEntry(referredUserId, side, entryId, tx) {
      await needTx(tx)('referral_bonuses')
        .where({ referred_user_id: referredUserId, side })
        .update({ ledger_entry_id: entryId });
    },

    async listForReferred(referredUserIds) {
      if (referredUserIds.length === 0) return [];
      const rows = (await db('referral_bonuses').whereIn('referred_user_id', referredUserIds)) as DecisionRow[];
      return rows.map(toDecision);
    },
  };
}
