import {
  LISTED_MARKETPLACES,
  MARKETPLACES,
  ORDER_FILE_EXTENSIONS,
  ORDER_FILES_PROMPT,
  ORDER_SOURCES,
} from '@flatship/proto';
import { describe, expect, it } from 'vitest';
import {
  MARKETPLACE_PLUGINS,
  marketplaceOf,
  OrderFileError,
  readOrderFile,
  rowsToCsv,
  type ShippedPackage,
  UNRECOGNISED_FILE_MESSAGE,
} from '../src/index';
import { AMAZON_HEADERS, amazonOrder, amazonText, ctx, utf8, WALMART_HEADERS } from './helpers';
import { validRow } from './rows';

const sourceOf = (name: string, text: string) => readOrderFile({ name, data: utf8(text) }, ctx()).source;

describe('the marketplace registry', () => {
  it('has one plugin per marketplace of proto’s list, in its order, and a confirmation file where proto says', () => {
    expect(MARKETPLACE_PLUGINS.map((p) => p.id)).toEqual([...ORDER_SOURCES]);
    expect(ORDER_SOURCES).toEqual(['csv', 'amazon', 'walmart', 'tiktok', 'ebay', 'shopify', 'etsy', 'test-market']);
    for (const info of MARKETPLACES) {
      expect(typeof marketplaceOf(info.id).confirmationFile, info.id).toBe(
        'confirmationFile' in info ? 'function' : 'undefined',
      );
    }
  });

  it('offers the listed marketplaces on the bulk screen, and not the test one', () => {
    expect(LISTED_MARKETPLACES.map((m) => m.id)).toEqual([
      'csv',
      'amazon',
      'walmart',
      'tiktok',
      'ebay',
      'shopify',
      'etsy',
    ]);
    expect(ORDER_FILES_PROMPT).toBe(
      '.csv / Amazon .txt, Walmart .xlsx, TikTok Shop .csv/.xlsx, eBay .csv, Shopify .csv and Etsy .csv',
    );
    expect(ORDER_FILE_EXTENSIONS).toEqual(['.csv', '.txt', '.xlsx']);
    expect(UNRECOGNISED_FILE_MESSAGE).toContain(
      '(Flatship CSV template, Amazon, Walmart, TikTok Shop, eBay, Shopify, Etsy)',
    );
  });
});

describe('recognising a file by its columns', () => {
  it('reads an Amazon report saved as .csv as Amazon, and a Walmart export saved as .csv as Walmart', () => {
    const amazonCsv = amazonText([amazonOrder()])
      .split('\r\n')
      .map((l) => l.split('\t').join(','))
      .join('\n');
    expect(sourceOf('report.csv', amazonCsv)).toBe('amazon');
    const walmartRow = [
      'P1',
      'O1',
      '2026-03-01',
      'Ann Buyer',
      '7755550101',
      '1 Main St',
      '',
      'Reno',
      'NV',
      '89501',
      '1',
      'Created',
      'Mug',
      '1',
      'MUG',
    ];
    expect(sourceOf('po.csv', `${WALMART_HEADERS.join(',')}\n${walmartRow.join(',')}`)).toBe('walmart');
  });

  it('reads the template written as tab-separated .txt as the template: the ending never picks the marketplace', () => {
    const tsv = rowsToCsv([validRow()]).replaceAll(',', '\t');
    expect(sourceOf('orders.txt', tsv)).toBe('csv');
  });

  it('breaks a tie between partial matches by the ending the file has', () => {
    // Two columns both Amazon and the template know: the .txt is Amazon's, the .csv the template's.
    expect(() => readOrderFile({ name: 'o.txt', data: utf8('order-id\tsku\n1\tA\n') }, ctx())).toThrow(
      /^Missing columns: recipient-name/,
    );
    expect(() => readOrderFile({ name: 'o.csv', data: utf8('order-id,sku\n1,A\n') }, ctx())).toThrow(
      /^Missing columns: To Name.*Download the Bulk Template CSV/,
    );
  });

  it('refuses a file whose columns no marketplace knows, naming the supported marketplaces', () => {
    const read = () => readOrderFile({ name: 'o.csv', data: utf8('colour,size\nred,L\n') }, ctx());
    expect(read).toThrow(OrderFileError);
    expect(read).toThrow(UNRECOGNISED_FILE_MESSAGE);
  });

  it('refuses a marketplace export saved as .csv when there is no saved address to ship from', () => {
    const text = 'TM Order,Buyer,Street,Town,Region,Postcode\nTM-1,Ann,1 Main St,Reno,NV,89501\n';
    const tests = { marketplaces: MARKETPLACE_PLUGINS };
    expect(() => readOrderFile({ name: 'tm.csv', data: utf8(text) }, ctx({ senderAddress: null, ...tests }))).toThrow(
      'Please add an address first',
    );
    expect(readOrderFile({ name: 'tm.csv', data: utf8(text) }, ctx(tests)).source).toBe('test-market');
    // Only where a test names it: a customer's upload is never read as the test-only marketplace.
    expect(() => sourceOf('tm.csv', text)).toThrow(UNRECOGNISED_FILE_MESSAGE);
  });
});

describe('confirmation files', () => {
  const shipped = (over: Partial<ShippedPackage> = {}): ShippedPackage => ({
    orderId: '112-1',
    orderItemId: '0001',
    sku: 'MUG',
    description: 'Mug',
    reference1: '',
    quantity: 2,
    shipDate: '2026-03-04',
    trackingNumber: '9400100000000000000000',
    courier: 'usps',
    serviceName: 'USPS Priority Mail',
    carrier: { carrierCode: 'USPS', carrierName: 'USPS' },
    ...over,
  });
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  it("Amazon's is its TSV, one line per label, naming a carrier without Amazon codes as Other", () => {
    const file = marketplaceOf('amazon').confirmationFile?.([
      shipped(),
      shipped({ courier: 'gone', carrier: null, orderId: '=HYPERLINK("x")', serviceName: 'a\tb' }),
    ]);
    expect(text(file as Uint8Array)).toBe(
      [
        'order-id\torder-item-id\tquantity\tship-date\tcarrier-code\tcarrier-name\ttracking-number\tship-method',
        '112-1\t0001\t2\t2026-03-04\tUSPS\tUSPS\t9400100000000000000000\tUSPS Priority Mail',
        `"'=HYPERLINK(""x"")"\t0001\t2\t2026-03-04\tOther\tgone\t9400100000000000000000\t"a\tb"`,
        '',
      ].join('\n'),
    );
    expect(AMAZON_HEADERS).toContain('order-item-id');
  });

  it('the template takes none', () => {
    expect(marketplaceOf('csv').confirmationFile).toBeUndefined();
  });
});
