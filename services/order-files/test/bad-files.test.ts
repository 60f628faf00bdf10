import { describe, expect, it } from 'vitest';
import { OrderFileError, readOrderFile } from '../src/index';
import { amazonOrder, amazonText, ctx, readFixture, utf8 } from './helpers';

function fileError(name: string, data: Uint8Array | ArrayBuffer, over = {}): string {
  try {
    readOrderFile({ name, data }, ctx(over));
  } catch (error) {
    expect(error).toBeInstanceOf(OrderFileError);
    return (error as Error).message;
  }
  throw new Error('expected an OrderFileError');
}

/** Deterministic noise, so a failure reproduces. */
function garbage(length: number, seed = 7): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = x >> 16;
  }
  return bytes;
}

describe('files that cannot be read', () => {
  it.each(['orders.pdf', 'orders.xls', 'orders', 'orders.csv.zip', 'orders.tsv'])('refuses %s by its name', (name) => {
    expect(fileError(name, utf8('a,b\n1,2\n'))).toBe(
      'Unsupported file type. Please upload a .csv, Amazon .txt, Walmart .xlsx, TikTok Shop .csv/.xlsx, eBay .csv, Shopify .csv or Etsy .csv file',
    );
  });

  it('judges the type by the name ending whatever its case', () => {
    expect(readOrderFile({ name: 'Orders.TXT', data: utf8(amazonText([amazonOrder()])) }, ctx()).source).toBe('amazon');
  });

  it.each(['orders.csv', 'orders.txt', 'orders.xlsx'])('refuses an empty %s', (name) => {
    expect(fileError(name, new Uint8Array(0))).toBe('This file is empty');
  });

  it('refuses a .csv of only blank lines', () => {
    expect(fileError('orders.csv', utf8('\r\n\r\n  \r\n'))).toBe('This file is empty');
  });

  it('refuses binary garbage named .csv or .txt', () => {
    expect(fileError('orders.csv', garbage(4096))).toBe(
      'This file is not a .csv text file. Please upload a .csv, Amazon .txt, Walmart .xlsx, TikTok Shop .csv/.xlsx, eBay .csv, Shopify .csv or Etsy .csv file',
    );
    expect(fileError('orders.txt', garbage(4096, 99))).toBe(
      'This file is not a .txt text file. Please upload a .csv, Amazon .txt, Walmart .xlsx, TikTok Shop .csv/.xlsx, eBay .csv, Shopify .csv or Etsy .csv file',
    );
  });

  it('refuses binary garbage named .xlsx', () => {
    expect(fileError('orders.xlsx', garbage(4096))).toBe(
      'This file is not an Excel .xlsx workbook. Please upload the Walmart or TikTok Shop order export as .xlsx',
    );
  });

  it('refuses a workbook named .csv, saying what to do', () => {
    expect(fileError('orders.csv', readFixture('walmart-orders-sample.xlsx'))).toBe(
      'This file is an Excel workbook, not a .csv file. Save it as CSV, or upload a Walmart order sheet as .xlsx',
    );
  });

  it('refuses a ZIP container that is not a workbook', () => {
    // A local-file header with nothing usable after it.
    const zipLike = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...garbage(600)]);
    expect(fileError('orders.xlsx', zipLike)).toBe(
      'This .xlsx file could not be read: it may be damaged or only partly downloaded',
    );
  });

  it('accepts an ArrayBuffer as well as a Uint8Array', () => {
    const bytes = utf8(amazonText([amazonOrder()]));
    const buffer = new ArrayBuffer(bytes.length);
    new Uint8Array(buffer).set(bytes);
    expect(readOrderFile({ name: 'o.txt', data: buffer }, ctx()).rows).toHaveLength(1);
  });
});

describe('the bulk order size limit', () => {
  it('accepts exactly 10,000 orders', () => {
    const orders = Array.from({ length: 10_000 }, (_, i) => amazonOrder({ 'order-id': `112-${i}` }));
    expect(readOrderFile({ name: 'o.txt', data: utf8(amazonText(orders)) }, ctx()).rows).toHaveLength(10_000);
  });

  it('refuses 10,001 orders naming the count', () => {
    const orders = Array.from({ length: 10_001 }, (_, i) => amazonOrder({ 'order-id': `112-${i}` }));
    expect(fileError('o.txt', utf8(amazonText(orders)))).toBe(
      'This file has 10001 orders; the most a bulk order can hold is 10000',
    );
  });

  it('refuses 10,001 CSV rows too', () => {
    const header = 'To Name,To Street 1,To City,To State,To Zip';
    const text = `${header}\n${'Ada,1 Main St,Reno,NV,89501\n'.repeat(10_001)}`;
    expect(fileError('o.csv', utf8(text))).toBe('This file has 10001 orders; the most a bulk order can hold is 10000');
  });

  it('refuses orders that split into more packages than a bulk order holds, before splitting them', () => {
    const text = amazonText([amazonOrder({ 'quantity-to-ship': '1000000' })]);
    expect(fileError('o.txt', utf8(text))).toBe(
      "This file has 1 orders that make 250000 packages at each SKU's max quantity; the most a bulk order can hold is 10000",
    );
  });
});
