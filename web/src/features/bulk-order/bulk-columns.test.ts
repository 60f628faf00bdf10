import { type BulkRow, emptyBulkRow } from '@flatship/order-files/rows';
import { describe, expect, it } from 'vitest';
import { rowProblems } from './bulk-columns';

const validRow = (over: Partial<BulkRow> = {}): BulkRow => ({
  ...emptyBulkRow('r1'),
  FromSenderName: 'Ada Shipper',
  FromStreet1: '100 Commerce Way',
  FromCity: 'Reno',
  FromStateProvince: 'NV',
  FromZipPostal: '89501',
  ToRecipientName: 'Harold Finch',
  ToStreet1: '2187 Larkspur Ave',
  ToCity: 'San Mateo',
  ToStateProvince: 'CA',
  ToZipPostal: '94401',
  PackageLength: 10,
  PackageWidth: 8,
  PackageHeight: 4,
  PackageWeight: 1.2,
  ...over,
});

describe('rowProblems', () => {
  it('highlights the cell whose text the server would refuse, before anything is sent', () => {
    expect([...rowProblems(validRow({ ToStreet2: 'Apt\u00004', FromCompany: 'Acme \ud800' }))]).toEqual([
      ['FromCompany', 'Sender company contains a character that is not allowed'],
      ['ToStreet2', 'Recipient street 2 contains a character that is not allowed'],
    ]);
  });

  it('highlights a weight with more decimals than allowed, and each cell once', () => {
    expect([...rowProblems(validRow({ PackageWeight: 12.345, ToZipPostal: '', ToCity: '' }))]).toEqual([
      ['ToCity', 'Recipient city is required'],
      ['ToZipPostal', 'Recipient zip is required'],
      ['PackageWeight', 'Weight can have at most 2 decimal places'],
    ]);
    expect(rowProblems(validRow()).size).toBe(0);
  });
});
