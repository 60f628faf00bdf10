import { isRecipientState, isUsState, RECIPIENT_STATES, US_STATES } from '@flatship/proto';

/** Options for a SearchableSelect: "CA — California"; the code first so a narrow field still shows it. */
export const US_STATE_OPTIONS = US_STATES.map(([code, name]) => ({ value: code, label: `${code} — ${name}` }));

/** The recipient's options: the 50 states, then DC, the territories and military post offices (USPS delivers there). */
export const RECIPIENT_STATE_OPTIONS = RECIPIENT_STATES.map(([code, name]) => ({
  value: code,
  label: `${code} — ${name}`,
}));

/** A sender is in one of the 50 states (as the address book); a recipient anywhere USPS delivers. */
export const sideStates = (side: 'from' | 'to') =>
  side === 'from'
    ? { options: US_STATE_OPTIONS, isState: isUsState }
    : { options: RECIPIENT_STATE_OPTIONS, isState: isRecipientState };
