import type { Sku } from '@flatship/proto';
import { describe, expect, it } from 'vitest';
import { applySkuPresets, type BulkRow, emptyBulkRow, splitByMaxQty } from '../src/index';

const row = (id: string, skuNumber: string, quantity: number | null): BulkRow => ({
  ...emptyBulkRow(id),
  skuNumber,
  quantity,
});
const preset = (sku: string, maxQty: number, over: Partial<Sku> = {}): Sku => ({
  _id: sku,
  sku,
  maxQty,
  weight: 2,
  length: 12,
  width: 10,
  height: 6,
  description: `${sku} box`,
  ...over,
});

describe('splitByMaxQty', () => {
  it('splits into ceil(quantity / maxQty) rows, 4 by default', () => {
    const parts = splitByMaxQty([row('a', 'X', 9)], []);
    expect(parts.map((p) => [p._id, p.quantity])).toEqual([
      ['a-1', 4],
      ['a-2', 4],
      ['a-3', 1],
    ]);
    expect(splitByMaxQty([row('b', 'X', 4)], []).map((p) => [p._id, p.quantity])).toEqual([['b', 4]]);
    expect(splitByMaxQty([row('c', 'X', 8)], [])).toHaveLength(2);
  });

  it("uses the preset's maxQty, matching the SKU ignoring case", () => {
    expect(splitByMaxQty([row('a', 'mug', 5)], [preset('MUG', 2)]).map((p) => p.quantity)).toEqual([2, 2, 1]);
    expect(splitByMaxQty([row('a', 'mug', 5)], [preset('MUG', 10)]).map((p) => p.quantity)).toEqual([5]);
  });

  it('treats a missing quantity as 1', () => {
    expect(splitByMaxQty([row('a', 'X', null)], []).map((p) => p.quantity)).toEqual([1]);
  });

  it('puts SKU rows first sorted by SKU then quantity descending, rows without SKU after in file order', () => {
    const rows = [
      row('n1', '', 2),
      row('b', 'B-2', 1),
      row('a1', 'A-1', 1),
      row('n2', '', 7),
      row('b2', 'B-2', 6),
      row('a2', 'a-1', 3),
    ];
    const parts = splitByMaxQty(rows, []);
    expect(parts.map((p) => [p._id, p.skuNumber, p.quantity])).toEqual([
      ['a2', 'a-1', 3],
      ['a1', 'A-1', 1],
      ['b2-1', 'B-2', 4],
      ['b2-2', 'B-2', 2],
      ['b', 'B-2', 1],
      ['n1', '', 2],
      ['n2-1', '', 4],
      ['n2-2', '', 3],
    ]);
  });

  it('does not change the rows it was given', () => {
    const rows = [row('a', 'X', 9)];
    splitByMaxQty(rows, []);
    expect(rows[0]!.quantity).toBe(9);
  });
});

describe('applySkuPresets', () => {
  it('takes weight, sizes and description from the matching preset', () => {
    const [applied, untouched] = applySkuPresets(
      [{ ...row('a', 'Tee-1', 1), PackageDescription: 'Tee' }, row('b', 'OTHER', 1)],
      [preset('TEE-1', 4)],
    );
    expect(applied).toMatchObject({
      PackageWeight: 2,
      PackageLength: 12,
      PackageWidth: 10,
      PackageHeight: 6,
      PackageDescription: 'TEE-1 box',
    });
    expect(untouched).toMatchObject({ PackageWeight: null, PackageLength: null });
  });

  it("keeps the row's description when the preset has none", () => {
    const [applied] = applySkuPresets(
      [{ ...row('a', 'T', 1), PackageDescription: 'Cotton tee' }],
      [preset('T', 4, { description: '' })],
    );
    expect(applied!.PackageDescription).toBe('Cotton tee');
    expect(applied!.PackageWeight).toBe(2);
  });
});
