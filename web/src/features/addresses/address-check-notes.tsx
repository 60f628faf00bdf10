import type { Address, CheckedAddress } from '@flatship/proto';
import { useState } from 'react';
import { oneLine } from '../address-check/address-check';

interface Props {
  addresses: Address[];
  /** Saves the suggested address in place of the one typed. */
  onUseSuggested: (address: Address, suggested: CheckedAddress) => Promise<unknown>;
}

/**
 * What the carrier said of the saved addresses when they were saved: a correction to take or leave, or a warning
 * that USPS cannot deliver there. Addresses it found deliverable (or could not check) say nothing.
 */
export function AddressCheckNotes({ addresses, onUseSuggested }: Props) {
  const [kept, setKept] = useState<ReadonlySet<string>>(new Set());
  const [saving, setSaving] = useState<string | null>(null);
  const notes = addresses.filter(
    (a) =>
      !kept.has(a._id) &&
      ((a.check?.verdict === 'corrected' && a.check.address) || a.check?.verdict === 'undeliverable'),
  );
  if (notes.length === 0) return null;
  const keep = (id: string) => setKept((k) => new Set([...k, id]));
  return (
    <ul className="address-book__checks" aria-label="Address checks">
      {notes.map((a) => {
        const suggested = a.check?.verdict === 'corrected' ? a.check.address : undefined;
        return (
          <li
            key={a._id}
            className={`address-check ${suggested ? 'address-check--suggest' : 'address-check--warn'}`}
            data-address-id={a._id}
          >
            <p className="address-check__text">
              <strong>{a.address_id}</strong>{' '}
              {suggested ? (
                <>
                  We suggest: <strong>{oneLine(suggested)}</strong>
                </>
              ) : (
                <>USPS cannot deliver to this address. {a.check?.message}</>
              )}
            </p>
            <div className="address-check__actions">
              {suggested ? (
                <button
                  type="button"
                  className="button button--primary"
                  disabled={saving === a._id}
                  aria-busy={saving === a._id}
                  onClick={() => {
                    setSaving(a._id);
                    onUseSuggested(a, suggested)
                      .catch(() => {})
                      .finally(() => setSaving(null));
                  }}
                >
                  {saving === a._id ? 'Saving…' : 'Use suggested'}
                </button>
              ) : null}
              <button type="button" className="button button--ghost" onClick={() => keep(a._id)}>
                {suggested ? 'Keep mine' : 'Keep it'}
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
