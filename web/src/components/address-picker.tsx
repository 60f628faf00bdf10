import type { Address } from '@flatship/proto';
import { useState } from 'react';
import { SearchableSelect } from './searchable-select';
import './address-picker.css';

export interface AddressPickerProps {
  /** Id of the picker's input, for its label. */
  id: string;
  label?: string;
  addresses: Address[];
  isLoading?: boolean;
  onPick: (address: Address) => void;
}

/** One line naming a saved address in the list: "Home — Jane Doe, 1 Main St, Austin TX 73301". */
export function addressOptionLabel(address: Address): string {
  const place = [address.street, [address.city, address.state, address.zip].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  const who = [address.name, place].filter(Boolean).join(', ');
  return address.address_id ? `${address.address_id} — ${who}` : who;
}

/** Chooses one of the user's saved addresses; the caller copies it into its form. */
export function AddressPicker({
  id,
  label = 'Saved address',
  addresses,
  isLoading = false,
  onPick,
}: AddressPickerProps) {
  const [picked, setPicked] = useState<string | null>(null);
  const options = addresses.map((a) => ({
    value: a._id,
    label: addressOptionLabel(a),
    keywords: [a.company, a.phone, a.street2].filter(Boolean).join(' '),
  }));

  if (!isLoading && addresses.length === 0) {
    return (
      <div className="field address-picker">
        <span className="field__label">{label}</span>
        <p className="address-picker__empty">No saved addresses found</p>
      </div>
    );
  }

  return (
    <div className="field address-picker">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <SearchableSelect
        id={id}
        options={options}
        value={picked}
        placeholder={isLoading ? 'Loading saved addresses…' : 'Search saved addresses'}
        disabled={isLoading}
        onChange={(value) => {
          const address = addresses.find((a) => a._id === value);
          if (!address) return;
          setPicked(value);
          onPick(address);
        }}
      />
    </div>
  );
}
