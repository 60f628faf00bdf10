import { describe, expect, it } from 'vitest';
import { readOrderFile, toBulkOrderItem, validateBulkRows } from '../src/index';
import { ctx, readFixture } from './helpers';

describe('a full-size Amazon report', () => {
  it('reads and validates 10,000 orders of the real 41-column layout, every one a valid row', () => {
    const [header, ...lines] = new TextDecoder().decode(readFixture('amazon-unshipped-sample.txt')).split('\r\n');
    // Lines 2-5 of the sample each fit in one package, so 10,000 lines stay 10,000 rows.
    const body = Array.from({ length: 10_000 }, (_, i) => lines[1 + (i % 4)]!.replace(/^[^\t]+/, `112-${i}`));
    const data = new TextEncoder().encode(`${header}\r\n${body.join('\r\n')}\r\n`);
    const skus = ['TEE-BLK-M', 'TEE-BLK-L', 'CANDLE-LAV-8OZ', 'MUG-11OZ-BLU'].map((sku) => ({
      _id: sku,
      sku,
      maxQty: 4,
      weight: 1,
      length: 10,
      width: 8,
      height: 4,
      description: '',
    }));
    const started = performance.now();
    const result = readOrderFile({ name: 'big.txt', data }, ctx({ skus }));
    const read = performance.now();
    const problems = validateBulkRows(result.rows, 'USPS Priority Mail');
    const items = result.rows.map((row) => toBulkOrderItem(row, 'USPS Priority Mail'));
    const done = performance.now();
    console.log(
      `10,000 Amazon rows (${(data.length / 1e6).toFixed(1)} MB): read ${Math.round(read - started)} ms, validate + map ${Math.round(done - read)} ms`,
    );
    expect(result.rows).toHaveLength(10_000);
    expect(result.warnings).toEqual([]);
    expect(problems).toEqual([]);
    expect(items).toHaveLength(10_000);
    // Speed is measured by `make bench-files`, not asserted here: the figure above is for reading only.
  });
});
