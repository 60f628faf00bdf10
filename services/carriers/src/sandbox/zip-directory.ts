// The ZIP codes the sandbox knows, with the city and state of each, from the `zipcodes` npm package (BSD licence,
// no dependencies, no install script; the US table only, ~42,000 ZIPs). Loaded on first use, then indexed once.
import zipcodes from 'zipcodes/lib/codes.js';

export interface ZipPlace {
  zip: string;
  city: string;
  state: string;
}

interface Index {
  byZip: Map<string, ZipPlace>;
  /** `STATE|CITY` (capitals) → the city's ZIPs, lowest first. */
  byCity: Map<string, string[]>;
}

let index: Index | null = null;

const cityKey = (city: string, state: string) =>
  `${state.trim().toUpperCase()}|${city.trim().toUpperCase().replace(/\s+/g, ' ')}`;

function load(): Index {
  if (index) return index;
  const byZip = new Map<string, ZipPlace>();
  const byCity = new Map<string, string[]>();
  for (const entry of Object.values(zipcodes.codes)) {
    if (entry.country !== 'US') continue;
    const place = { zip: entry.zip, city: entry.city.toUpperCase(), state: entry.state };
    byZip.set(place.zip, place);
    const key = cityKey(place.city, place.state);
    const zips = byCity.get(key);
    if (zips) zips.push(place.zip);
    else byCity.set(key, [place.zip]);
  }
  for (const zips of byCity.values()) zips.sort();
  index = { byZip, byCity };
  return index;
}

/** The place of a five-digit ZIP, or null when no such ZIP exists. */
export const zipPlace = (zip5: string): ZipPlace | null => load().byZip.get(zip5) ?? null;

/** The ZIPs of a city in a state, lowest first (empty when the state has no such city). */
export const cityZips = (city: string, state: string): readonly string[] =>
  load().byCity.get(cityKey(city, state)) ?? [];
