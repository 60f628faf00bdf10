import { US_STATES } from '@flatship/proto';

/** Options for a SearchableSelect: "CA — California"; the code first so a narrow field still shows it. */
export const US_STATE_OPTIONS = US_STATES.map(([code, name]) => ({ value: code, label: `${code} — ${name}` }));
