/// <reference path="../src/zipcodes.d.ts" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import zipcodes from 'zipcodes/lib/codes.js';
import { ZIP_TABLE_FILE, zipTableSource } from '../scripts/zip-table';
import { cityZips, zipPlace, zipState } from '../src/zip-directory';

// The one ZIP directory every check reads: a table generated from the `zipcodes` package, not the package itself.

describe('the ZIP directory', () => {
  it('is the table generated from the installed zipcodes package (npm run zip-table -w @flatship/order-files)', () => {
    expect(readFileSync(ZIP_TABLE_FILE, 'utf8') === zipTableSource()).toBe(true);
  });

  it('knows every US ZIP of the package, with its city and state, and each city’s ZIPs lowest first', () => {
    const byCity = new Map<string, string[]>();
    const wrong: string[] = [];
    for (const entry of Object.values(zipcodes.codes)) {
      if (entry.country !== 'US') continue;
      const place = zipPlace(entry.zip);
      const city = entry.city.toUpperCase();
      if (place?.city !== city || place.state !== entry.state || zipState(entry.zip) !== entry.state) {
        wrong.push(`${entry.zip}: ${JSON.stringify(place)}`);
      }
      const key = `${entry.state}|${city}`;
      byCity.set(key, [...(byCity.get(key) ?? []), entry.zip]);
    }
    expect(wrong).toEqual([]);
    const cities = [...byCity].filter(([key, zips]) => {
      const [state, city] = key.split('|') as [string, string];
      return JSON.stringify(cityZips(city, state)) !== JSON.stringify(zips.sort());
    });
    expect(cities).toEqual([]);
  });

  it('answers nothing for a ZIP or city that does not exist, and reads a city in any case and spacing', () => {
    expect(zipPlace('00000')).toBeNull();
    expect(zipState('99999')).toBeNull();
    expect(zipPlace('1011')).toBeNull();
    expect(zipPlace('10118')).toEqual({ zip: '10118', city: 'NEW YORK', state: 'NY' });
    expect(cityZips('  mountain   view ', 'ca')).toContain('94043');
    expect(cityZips('Nowhereville', 'NV')).toEqual([]);
    expect(cityZips('New York', 'ZZ')).toEqual([]);
  });
});
