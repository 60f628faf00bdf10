import {
  ADDRESS_CHECK_UNAVAILABLE,
  type AddressCheck,
  type AddressToCheck,
  type CheckedAddress,
  isRecipientState,
  ZIP_PATTERN,
} from '@flatship/proto';
import { useCallback, useEffect, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Spinner } from '../../components/spinner';
import { selectAddressAnswer, selectIsAddressKept } from './address-check-selectors';
import { addressCheckRequested, addressKept, addressKey, type CheckSide, suggestionUsed } from './address-check-slice';
import './address-check.css';

/** "350 FIFTH AVE, NEW YORK, NY 10001-5262": a suggested address on one line. */
export const oneLine = (a: CheckedAddress): string =>
  [a.street1, a.street2, a.city, `${a.state} ${a.zip}`].filter((p) => p.trim() !== '').join(', ');

/** Whether the address has everything a check needs (the form's own rules say the rest). */
export function isComplete(a: AddressToCheck): boolean {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  return (
    text(a.street1) !== '' &&
    text(a.city) !== '' &&
    isRecipientState(text(a.state).toUpperCase()) &&
    ZIP_PATTERN.test(text(String(a.zip ?? '')))
  );
}

export type CheckState =
  | { status: 'idle' }
  | { status: 'checking' }
  | { status: 'done'; check: AddressCheck; isKept: boolean };

/**
 * Checks an address with the carrier when it is complete and the user has stopped typing (the saga waits); the
 * answer for an address is kept, so going back to it asks nothing. "Keep mine" is remembered for that address.
 * `skip`: an address that needs no check (a saved address already checked).
 */
export function useAddressCheck(
  side: CheckSide,
  address: AddressToCheck,
  opts: { skip?: boolean; serviceUid?: string } = {},
) {
  const dispatch = useAppDispatch();
  const key = addressKey(address);
  const complete = isComplete(address) && !opts.skip;
  const answer = useAppSelector((state) => selectAddressAnswer(state, key));
  const isKept = useAppSelector((state) => selectIsAddressKept(state, key));
  const latest = useRef(address);
  latest.current = address;
  const { serviceUid } = opts;

  useEffect(() => {
    if (!complete || answer) return;
    dispatch(addressCheckRequested({ side, key, address: latest.current, ...(serviceUid ? { serviceUid } : {}) }));
  }, [dispatch, side, key, complete, answer, serviceUid]);

  const state: CheckState = !complete
    ? { status: 'idle' }
    : answer
      ? { status: 'done', check: answer, isKept }
      : { status: 'checking' };
  return {
    state,
    keepMine: useCallback(() => dispatch(addressKept(key)), [dispatch, key]),
    rememberSuggested(next: AddressToCheck, suggested: CheckedAddress) {
      dispatch(suggestionUsed({ key: addressKey(next), check: { verdict: 'deliverable', address: suggested } }));
    },
  };
}

interface NoticeProps {
  id: string;
  state: CheckState;
  onUseSuggested: (suggested: CheckedAddress) => void;
  onKeepMine: () => void;
  /** Shown with an undeliverable address when buying to it needs a deliberate click. */
  acknowledge?: { id: string; isChecked: boolean; onChange: (checked: boolean) => void; label: string };
}

/** What the carrier said of an address, under the address's fields. */
export function AddressCheckNotice({ id, state, onUseSuggested, onKeepMine, acknowledge }: NoticeProps) {
  if (state.status === 'idle') return null;
  if (state.status === 'checking') {
    return (
      <p id={id} className="address-check address-check--busy" role="status">
        <Spinner size={16} /> Checking address…
      </p>
    );
  }
  const { check } = state;
  if (check.verdict === 'deliverable') {
    return (
      <p id={id} className="address-check address-check--ok" role="status">
        Address checked
      </p>
    );
  }
  if (check.verdict === 'unavailable') {
    return (
      <p id={id} className="address-check address-check--muted" role="status">
        {ADDRESS_CHECK_UNAVAILABLE}. You can still buy the label.
      </p>
    );
  }
  if (check.verdict === 'corrected' && check.address) {
    if (state.isKept) {
      return (
        <p id={id} className="address-check address-check--muted" role="status">
          Keeping your address as typed.
        </p>
      );
    }
    const suggested = check.address;
    return (
      <fieldset id={id} className="address-check address-check--suggest" aria-label="Suggested address">
        <p className="address-check__text">
          We suggest: <strong>{oneLine(suggested)}</strong>
        </p>
        <div className="address-check__actions">
          <button type="button" className="button button--primary" onClick={() => onUseSuggested(suggested)}>
            Use suggested
          </button>
          <button type="button" className="button button--ghost" onClick={onKeepMine}>
            Keep mine
          </button>
        </div>
      </fieldset>
    );
  }
  return (
    <div id={id} className="address-check address-check--warn" role="alert">
      <p className="address-check__text">
        <strong>USPS cannot deliver to this address.</strong> {check.message}
      </p>
      {acknowledge ? (
        <label className="address-check__ack">
          <input
            id={acknowledge.id}
            type="checkbox"
            checked={acknowledge.isChecked}
            onChange={(e) => acknowledge.onChange(e.target.checked)}
          />
          {acknowledge.label}
        </label>
      ) : null}
    </div>
  );
}
