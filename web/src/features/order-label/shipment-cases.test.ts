import type { BulkRow } from '@flatship/order-files/rows';
import { describe, expect, it } from 'vitest';
import { caseRow, SHIPMENT_CASES } from '../../../../services/order-files/test/shipment-cases';
import { formProblem, initialLabelForm, type LabelForm } from './order-label-form';

// The single-label form against the shared table of shipments (order-files/test/shipment-cases.ts)
// that the bulk table's rules and the orders service answer: the form refuses what they refuse,
// in the same words. Its courier and country are fixed, so cases changing those are left out.
const formOf = (r: BulkRow): LabelForm => {
  const base = initialLabelForm();
  const num = (v: number | null) => (v === null ? '' : String(v));
  return {
    ...base,
    pkg: {
      ...base.pkg,
      length: num(r.PackageLength),
      width: num(r.PackageWidth),
      height: num(r.PackageHeight),
      weight: num(r.PackageWeight),
      description: r.PackageDescription,
      quantity: num(r.quantity),
      sku: r.skuNumber,
    },
    from: {
      name: r.FromSenderName,
      company: r.FromCompany,
      phone: r.FromPhone,
      street: r.FromStreet1,
      street2: r.FromStreet2,
      city: r.FromCity,
      state: r.FromStateProvince,
      zip: r.FromZipPostal,
    },
    to: {
      name: r.ToRecipientName,
      company: r.ToCompany,
      phone: r.ToPhone,
      street: r.ToStreet1,
      street2: r.ToStreet2,
      city: r.ToCity,
      state: r.ToStateProvince,
      zip: r.ToZipPostal,
    },
  };
};

const cases = SHIPMENT_CASES.filter((c) => c.row.courier === undefined && c.row.ToCountry === undefined).map(
  (c) => [c.name, c] as const,
);

describe('the single-label form judges a shipment as the bulk table and the server do', () => {
  it.each(cases)('%s', (_, c) => {
    const problem = formProblem(formOf(caseRow(c.row)));
    const [first] = c.problems;
    if (!first) expect(problem).toBeNull();
    // Blank required fields are listed together, in the spec's words (doc 1 §9).
    else if (first.message.endsWith(' is required')) {
      expect(problem?.message).toMatch(/^Please fill in the required fields: /);
    } else expect(problem?.message).toBe(first.message);
  });

  it('points at the input the problem is about', () => {
    const form = formOf(caseRow({ ToZipPostal: '1234' }));
    expect(formProblem(form)).toEqual({
      id: 'to-zip',
      message: 'Recipient zip must be a 5-digit ZIP code or ZIP+4',
    });
  });
});
