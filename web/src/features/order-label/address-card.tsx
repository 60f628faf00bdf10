import type { Address } from '@flatship/proto';
import type { ReactNode } from 'react';
import { AddressPicker } from '../../components/address-picker';
import { SearchableSelect } from '../../components/searchable-select';
import { type AddressForm, COUNTRY, fieldId } from './order-label-form';
import { sideStates } from './us-states';

interface AddressCardProps {
  side: 'from' | 'to';
  title: string;
  value: AddressForm;
  onChange: (next: AddressForm) => void;
  onPick: (saved: Address) => void;
  savedAddresses: Address[];
  isLoadingAddresses: boolean;
  invalid: ReadonlySet<string>;
  /** Under the fields: what the carrier said of the address. */
  footer?: ReactNode;
}

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  isInvalid?: boolean;
  autoComplete?: string;
  type?: string;
  inputMode?: 'numeric' | 'tel';
  className?: string;
}

export function TextField({
  id,
  label,
  value,
  onChange,
  required,
  isInvalid,
  autoComplete,
  type = 'text',
  inputMode,
  className,
}: TextFieldProps) {
  return (
    <div className={`field ${className ?? ''}`}>
      <label className={`field__label ${required ? 'field__label--required' : ''}`} htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        type={type}
        inputMode={inputMode}
        autoComplete={autoComplete}
        required={required}
        aria-invalid={isInvalid || undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/** One side of the shipment: a saved-address picker that fills the fields below it. */
export function AddressCard({
  side,
  title,
  value,
  onChange,
  onPick,
  savedAddresses,
  isLoadingAddresses,
  invalid,
  footer,
}: AddressCardProps) {
  const headingId = `${side}-address-heading`;
  const id = (key: keyof AddressForm) => fieldId.address(side, key);
  const set = (key: keyof AddressForm) => (next: string) => onChange({ ...value, [key]: next });
  // Autofill sections keep the browser from putting the sender's address into the receiver's card.
  const auto = (token: string) => `section-${side} shipping ${token}`;

  return (
    <section className="card order-label__card" aria-labelledby={headingId}>
      <h2 id={headingId} className="order-label__card-title">
        {title}
      </h2>
      <AddressPicker
        id={`${side}-saved-address`}
        addresses={savedAddresses}
        isLoading={isLoadingAddresses}
        onPick={onPick}
      />
      <TextField
        id={id('name')}
        label="Name"
        required
        isInvalid={invalid.has(id('name'))}
        autoComplete={auto('name')}
        value={value.name}
        onChange={set('name')}
      />
      <div className="order-label__row">
        <TextField
          id={id('company')}
          label="Company"
          autoComplete={auto('organization')}
          value={value.company}
          onChange={set('company')}
        />
        <TextField
          id={id('phone')}
          label="Phone"
          type="tel"
          autoComplete={auto('tel')}
          value={value.phone}
          onChange={set('phone')}
        />
      </div>
      <TextField
        id={id('street')}
        label="Street"
        required
        isInvalid={invalid.has(id('street'))}
        autoComplete={auto('address-line1')}
        value={value.street}
        onChange={set('street')}
      />
      <TextField
        id={id('street2')}
        label="Street 2 (apartment, suite)"
        autoComplete={auto('address-line2')}
        value={value.street2}
        onChange={set('street2')}
      />
      <TextField
        id={id('city')}
        label="City"
        required
        isInvalid={invalid.has(id('city'))}
        autoComplete={auto('address-level2')}
        value={value.city}
        onChange={set('city')}
      />
      <div className="order-label__row">
        <div className="field">
          <label className="field__label field__label--required" htmlFor={id('state')}>
            State
          </label>
          <SearchableSelect
            id={id('state')}
            options={sideStates(side).options}
            value={value.state}
            required
            onChange={(state) => {
              if (sideStates(side).isState(state)) set('state')(state);
            }}
          />
        </div>
        <TextField
          id={id('zip')}
          label="ZIP code"
          required
          inputMode="numeric"
          isInvalid={invalid.has(id('zip'))}
          autoComplete={auto('postal-code')}
          value={value.zip}
          onChange={set('zip')}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${side}-country`}>
          Country
        </label>
        <input id={`${side}-country`} className="input" value={COUNTRY} readOnly aria-readonly="true" />
      </div>
      {footer}
    </section>
  );
}
