import { describe, expect, it } from 'vitest';
import { parseSkuCsv } from './sku-csv';

describe('parseSkuCsv', () => {
  it('maps headers in any case and order, fills missing columns with blanks and ignores unknown ones', () => {
    const result = parseSkuCsv('Weight,SKU,note\n1.5,MUG,ignored\n');
    expect(result).toEqual({
      ok: true,
      rows: [{ sku: 'MUG', maxQty: '', weight: '1.5', length: '', width: '', height: '', description: '' }],
    });
  });

  it('refuses broken quoting rather than guess where cells end', () => {
    expect(parseSkuCsv('sku,description\nA,"open quote\n')).toEqual({
      ok: false,
      message: 'Quoted field unterminated',
    });
  });
});
