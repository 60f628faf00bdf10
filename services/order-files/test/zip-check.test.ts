import { describe, expect, it } from 'vitest';
import { readOrderFile, rowsToCsv, zipFlags, zipFlagsWarning } from '../src/index';
import { emptyBulkRow } from '../src/rows';
import { ctx } from './helpers';

// The instant ZIP check at file load: from the USPS ZIP codes (the `zipcodes` package), offline.

const row = (over: Partial<ReturnType<typeof emptyBulkRow>> = {}) => ({
  ...emptyBulkRow('row-1'),
  FromStreet1: '1 Main St',
  FromCity: 'Austin',
  FromStateProvince: 'TX',
  FromZipPostal: '73301',
  ToStreet1: '350 Fifth Avenue',
  ToCity: 'New York',
  ToStateProvince: 'NY',
  ToZipPostal: '10118',
  ...over,
});

describe('zipFlags', () => {
  it('passes a ZIP of the row’s state, ZIP+4 too', () => {
    expect(zipFlags(row())).toEqual([]);
    expect(zipFlags(row({ ToZipPostal: '10118-0110' }))).toEqual([]);
  });

  it('flags a ZIP that does not exist and one of another state, on either side', () => {
    expect(zipFlags(row({ ToZipPostal: '00000' }))).toEqual([
      { field: 'ToZipPostal', kind: 'unknown', message: 'Recipient ZIP 00000 does not exist' },
    ]);
    expect(zipFlags(row({ ToStateProvince: 'CA' }))).toEqual([
      { field: 'ToZipPostal', kind: 'state', message: 'Recipient ZIP 10118 is in NY, not CA' },
    ]);
    expect(zipFlags(row({ FromStateProvince: 'Nevada' }))).toEqual([
      { field: 'FromZipPostal', kind: 'state', message: 'Sender ZIP 73301 is in TX, not NV' },
    ]);
  });

  it('leaves malformed ZIPs and missing states to the row rules', () => {
    expect(zipFlags(row({ ToZipPostal: '1234' }))).toEqual([]);
    expect(zipFlags(row({ ToStateProvince: '' }))).toEqual([]);
  });
});

const NEW_YORK = ['10001', '10118', '11201', '14604', '12207'];

describe('reading a file', () => {
  it('marks the rows whose ZIPs are doubtful and says how many, in a 1,000-row file in well under a second', () => {
    const rows = Array.from({ length: 1_000 }, (_, i) =>
      row({
        _id: `row-${i + 1}`,
        ToRecipientName: `Buyer ${i}`,
        FromSenderName: 'Ada',
        ToZipPostal: i === 10 ? '00000' : i === 20 ? '94043' : (NEW_YORK[i % NEW_YORK.length] as string),
      }),
    );
    const csv = rowsToCsv(rows);
    // The processor time the reading takes, not the wall time: other processes busy on the same cores do not count.
    const started = process.cpuUsage();
    const result = readOrderFile({ name: 'orders.csv', data: new TextEncoder().encode(csv) }, ctx());
    const used = process.cpuUsage(started);
    const took = (used.user + used.system) / 1000;
    console.log(`1,000-row file read with its ZIP check in ${Math.round(took)} ms of processor time`);
    expect(took).toBeLessThan(2_000);
    const flagged = Object.fromEntries(
      Object.entries(result.zipFlags).map(([id, flags]) => [
        result.rows.find((r) => r._id === id)?.ToRecipientName,
        flags.map((f) => f.message),
      ]),
    );
    expect(flagged).toEqual({
      'Buyer 10': ['Recipient ZIP 00000 does not exist'],
      'Buyer 20': ['Recipient ZIP 94043 is in CA, not NY'],
    });
    expect(result.warnings).toContain(zipFlagsWarning(2));
  });
});
