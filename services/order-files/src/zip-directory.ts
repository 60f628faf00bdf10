// The US ZIP codes with the city and state of each: the one place every ZIP check reads (order-files' check of a
// file's rows, in the browser's file worker and in the orders service; the sandbox carrier's address check). The data
// is `zip-table.ts`, generated from the `zipcodes` npm package (scripts/zip-table.ts): one line of text per city,
// decoded on first use into typed arrays over that text, never one object per ZIP. A process that imports this module
// holds the 0.55 MB table; servers import its users with `await import()` on the paths that check a ZIP.
import { ZIP_TABLE } from './zip-table';

export interface ZipPlace {
  zip: string;
  /** In capitals, single-spaced. */
  city: string;
  state: string;
}

interface Index {
  /** Where each place's line starts in the table (one more entry: the end), places sorted by `STATE|CITY`. */
  lineStart: Uint32Array;
  /** Where each place's city ends (its `:`). */
  cityEnd: Uint32Array;
  /** Place number + 1 of each five-digit ZIP (index = the ZIP as a number); 0 where no such ZIP exists. */
  placeOfZip: Uint16Array;
  /** Every ZIP, place by place, ascending within a place; place i's are [zipStart[i], zipStart[i + 1]). */
  zips: Int32Array;
  zipStart: Uint32Array;
}

let index: Index | null = null;

function decode(): Index {
  const table = ZIP_TABLE;
  let places = 1;
  for (let at = table.indexOf('\n'); at >= 0; at = table.indexOf('\n', at + 1)) places++;
  if (places >= 0xffff) throw new Error('the ZIP table has more places than a Uint16Array numbers');
  let zipCount = places;
  for (let at = table.indexOf(','); at >= 0; at = table.indexOf(',', at + 1)) zipCount++;
  const lineStart = new Uint32Array(places + 1);
  const cityEnd = new Uint32Array(places);
  const placeOfZip = new Uint16Array(100_000);
  const zips = new Int32Array(zipCount);
  const zipStart = new Uint32Array(places + 1);
  let start = 0;
  let z = 0;
  for (let place = 0; place < places; place++) {
    const end = table.indexOf('\n', start) < 0 ? table.length : table.indexOf('\n', start);
    const colon = table.indexOf(':', start);
    lineStart[place] = start;
    cityEnd[place] = colon;
    zipStart[place] = z;
    let zip = 0;
    for (const step of table.slice(colon + 1, end).split(',')) {
      zip += Number.parseInt(step, 36);
      zips[z++] = zip;
      placeOfZip[zip] = place + 1;
    }
    start = end + 1;
  }
  lineStart[places] = table.length + 1;
  zipStart[places] = z;
  index = { lineStart, cityEnd, placeOfZip, zips, zipStart };
  return index;
}

const load = (): Index => index ?? decode();

const stateAt = (ix: Index, place: number) => ZIP_TABLE.slice(ix.lineStart[place], (ix.lineStart[place] as number) + 2);
const cityAt = (ix: Index, place: number) => ZIP_TABLE.slice((ix.lineStart[place] as number) + 2, ix.cityEnd[place]);
const zip5 = (n: number) => String(n).padStart(5, '0');

/** The place number of a five-digit ZIP, or -1. */
function placeOf(ix: Index, zip: string): number {
  if (!/^\d{5}$/.test(zip)) return -1;
  return (ix.placeOfZip[Number(zip)] as number) - 1;
}

/** The place of a five-digit ZIP, or null when no such ZIP exists. */
export function zipPlace(zip: string): ZipPlace | null {
  const ix = load();
  const place = placeOf(ix, zip);
  return place < 0 ? null : { zip, city: cityAt(ix, place), state: stateAt(ix, place) };
}

/** The state a five-digit ZIP belongs to, or null when no such ZIP exists. */
export function zipState(zip: string): string | null {
  const ix = load();
  const place = placeOf(ix, zip);
  return place < 0 ? null : stateAt(ix, place);
}

/** The ZIPs of a city in a state (any case and spacing), lowest first; empty when the state has no such city. */
export function cityZips(city: string, state: string): readonly string[] {
  const ix = load();
  const key = `${state.trim().toUpperCase()}|${city.trim().toUpperCase().replace(/\s+/g, ' ')}`;
  // Binary search over the places, which the table sorts by `STATE|CITY`.
  let lo = 0;
  let hi = ix.cityEnd.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = `${stateAt(ix, mid)}|${cityAt(ix, mid)}`;
    if (at === key) return [...ix.zips.subarray(ix.zipStart[mid], ix.zipStart[mid + 1])].map(zip5);
    if (at < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return [];
}
