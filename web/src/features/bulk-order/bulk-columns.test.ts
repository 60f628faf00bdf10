import { describe, expect, it } from 'vitest';
import { validRow } from '../../../../services/order-files/test/rows';
import { rowProblems } from './bulk-columns';

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
