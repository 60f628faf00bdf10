import '../shell/user-area';
import { type Address, type CheckedAddress, LIMITS, US_STATES } from '@flatship/proto';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { type Column, DataTable, type RowChanges } from '../../components/data-table';
import { createPendingRequest } from '../../components/data-table-requests';
import { FormDialog, type FormField, type FormValues } from '../../components/form-dialog';
import { PinIcon } from '../../components/icons';
import { toastShown } from '../../components/toast-slice';
import '../address-check/address-check.css';
import { selectUser } from '../auth/auth-selectors';
import { AddressCheckNotes } from './address-check-notes';
import { ADDRESS_MESSAGES } from './address-messages';
import { selectAddresses, selectAddressesStatus } from './address-selectors';
import {
  type AddressFields,
  addressAddSubmitted,
  addressDeleteSubmitted,
  addressesRequested,
  addressUpdateSubmitted,
} from './address-slice';
import './address.css';

/** Doc 2 §3: addresses are US only. */
export const ADDRESS_COUNTRY = 'US';

const FIELD_NAMES = [
  'address_id',
  'name',
  'company',
  'phone',
  'street',
  'street2',
  'city',
  'state',
  'zip',
  'country',
] as const satisfies readonly (keyof AddressFields)[];

const STATE_NAME_OPTIONS = US_STATES.map(([code, name]) => ({ value: code, label: `${name} (${code})` }));
const STATE_CODE_OPTIONS = US_STATES.map(([code]) => ({ value: code, label: code }));

const maxLength = LIMITS.addressFieldMax;
const FORM_FIELDS: FormField[] = [
  { name: 'address_id', label: 'Address ID', required: true, maxLength },
  { name: 'name', label: 'Name', required: true, autoComplete: 'name', maxLength },
  { name: 'company', label: 'Company', autoComplete: 'organization', maxLength },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel', maxLength },
  { name: 'street', label: 'Street', required: true, autoComplete: 'address-line1', isWide: true, maxLength },
  { name: 'street2', label: 'Street 2', autoComplete: 'address-line2', isWide: true, maxLength },
  { name: 'city', label: 'City', required: true, autoComplete: 'address-level2', maxLength },
  { name: 'state', label: 'State', type: 'select', required: true, options: STATE_NAME_OPTIONS },
  { name: 'zip', label: 'ZIP', required: true, autoComplete: 'postal-code', aliases: ['zip code', 'postal code'] },
  { name: 'country', label: 'Country', readOnly: true, required: true },
];

const EMPTY_FORM: FormValues = {
  address_id: '',
  name: '',
  company: '',
  phone: '',
  street: '',
  street2: '',
  city: '',
  state: '',
  zip: '',
  country: ADDRESS_COUNTRY,
};

const COLUMNS: Column<Address>[] = [
  { key: 'address_id', header: 'Address ID', editable: true, required: true },
  { key: 'name', header: 'Name', editable: true, required: true },
  { key: 'company', header: 'Company', editable: true },
  { key: 'phone', header: 'Phone', editable: true, type: 'phone' },
  { key: 'street', header: 'Street', editable: true, required: true },
  { key: 'street2', header: 'Street 2', editable: true },
  { key: 'city', header: 'City', editable: true, required: true },
  { key: 'state', header: 'State', editable: true, required: true, type: 'select', options: STATE_CODE_OPTIONS },
  { key: 'zip', header: 'ZIP', editable: true, required: true, className: 'data-table__nowrap' },
  { key: 'country', header: 'Country' },
];

function toFields(values: Record<string, unknown>): AddressFields {
  const text = (key: keyof AddressFields) => {
    const value = values[key];
    return value === null || value === undefined ? '' : String(value);
  };
  const fields = Object.fromEntries(FIELD_NAMES.map((key) => [key, text(key)])) as unknown as AddressFields;
  // The country cannot be edited and is US whatever an old record says.
  fields.country = ADDRESS_COUNTRY;
  return fields;
}

export function AddressPage() {
  const dispatch = useAppDispatch();
  const userId = useAppSelector(selectUser)?._id;
  const addresses = useAppSelector(selectAddresses);
  const status = useAppSelector(selectAddressesStatus);
  const [isAdding, setIsAdding] = useState(false);

  useEffect(() => {
    if (userId) dispatch(addressesRequested(userId));
  }, [userId, dispatch]);

  const add = useCallback(
    (values: FormValues) => {
      if (!userId) return Promise.reject(new Error('Not signed in'));
      const { requestId, promise } = createPendingRequest();
      dispatch(addressAddSubmitted({ requestId, userId, fields: toFields(values) }));
      return promise;
    },
    [dispatch, userId],
  );

  const save = useCallback(
    (row: Address, changes: RowChanges) => {
      if (!userId) return Promise.reject(new Error('Not signed in'));
      const { requestId, promise } = createPendingRequest();
      dispatch(addressUpdateSubmitted({ requestId, userId, id: row._id, fields: toFields({ ...row, ...changes }) }));
      return promise;
    },
    [dispatch, userId],
  );

  const useSuggested = useCallback(
    (row: Address, suggested: CheckedAddress) =>
      save(row, {
        street: suggested.street1,
        street2: suggested.street2,
        city: suggested.city,
        state: suggested.state,
        zip: suggested.zip,
      }).then(
        () => dispatch(toastShown({ kind: 'success', message: 'Address updated to the suggested one' })),
        (error: unknown) => {
          dispatch(toastShown({ kind: 'error', message: error instanceof Error ? error.message : String(error) }));
        },
      ),
    [save, dispatch],
  );

  const remove = useCallback(
    (row: Address) => {
      if (!userId) return Promise.reject(new Error('Not signed in'));
      const { requestId, promise } = createPendingRequest();
      dispatch(addressDeleteSubmitted({ requestId, userId, id: row._id }));
      return promise;
    },
    [dispatch, userId],
  );

  const emptyText = useMemo(
    () => (
      <div className="address-book__empty">
        <PinIcon />
        <strong>{ADDRESS_MESSAGES.empty}</strong>
        <span>Use Add Address to save the addresses you ship from and to.</span>
      </div>
    ),
    [],
  );

  const isLoading = status === 'idle' || (status === 'loading' && addresses.length === 0);

  return (
    <section className="card address-book" aria-labelledby="address-book-heading">
      <div className="address-book__header">
        <div>
          <h2 id="address-book-heading" className="address-book__title">
            Address Book
          </h2>
          <p className="address-book__lead">Saved addresses fill the From and To cards of a label in one click.</p>
        </div>
        <button type="button" className="button button--primary" onClick={() => setIsAdding(true)}>
          Add Address
        </button>
      </div>
      <AddressCheckNotes addresses={addresses} onUseSuggested={useSuggested} />
      <DataTable
        caption="Saved addresses"
        columns={COLUMNS}
        rows={addresses}
        rowKey={(a) => a._id}
        emptyText={emptyText}
        isLoading={isLoading}
        loadingText="Loading addresses…"
        onSave={save}
        onDelete={remove}
      />
      <FormDialog
        isOpen={isAdding}
        title="Add Address"
        fields={FORM_FIELDS}
        initialValues={EMPTY_FORM}
        submitLabel="Add Address"
        submittingLabel="Adding…"
        onSubmit={add}
        onClose={() => setIsAdding(false)}
      />
    </section>
  );
}
