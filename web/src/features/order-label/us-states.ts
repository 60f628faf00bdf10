import { US_STATES } from '@flatship/proto';

// proto's us-states module imports no schema code and proto is free of side
// effects, so the browser bundle takes just the list.
export { isUsState, US_STATES, type UsStateCode } from '@flatship/proto';

/** Options for a SearchableSelect: "CA — California"; the code first so a narrow field still shows it. */
export const US_STATE_OPTIONS = US_STATES.map(([code, name]) => ({ value: code, label: `${code} — ${name}` }));
