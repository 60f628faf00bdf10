import { describe, expect, test } from 'vitest';
import { uspsIdempotencyKey, uuidV5 } from '../src/usps-api/idempotency';
import { readLabelAnswer, readLabelMetadata } from '../src/usps-api/label-answer';
import { buildMultipart, MultipartError, parseMultipart } from '../src/usps-api/multipart';

const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.from([0, 1, 2, 0xff, 0x0d, 0x0a, 0x2d, 0x2d]),
  Buffer.from('\n%%EOF'),
]);

describe('the multipart reader', () => {
  test('reads what the Labels API describes: JSON metadata and a Base64 image, whatever the transfer encoding says', () => {
    const body = buildMultipart('b0undary', [
      {
        headers: { 'Content-Disposition': 'form-data; name="labelMetadata"', 'Content-Type': 'application/json' },
        body: '{"trackingNumber":"9300189900100000000017","postage":7.1}',
      },
      {
        headers: {
          'Content-Disposition': 'form-data; name="labelImage"; filename="label.pdf"',
          'Content-Type': 'application/pdf',
          'Content-Transfer-Encoding': 'binary',
        },
        body: PDF.toString('base64').replace(/(.{8})/g, '$1\r\n'),
      },
    ]);
    const parts = parseMultipart(body, 'multipart/form-data; boundary="b0undary"');
    expect(parts.map((p) => [p.name, p.filename, p.contentType])).toEqual([
      ['labelMetadata', undefined, 'application/json'],
      ['labelImage', 'label.pdf', 'application/pdf'],
    ]);
    const answer = readLabelAnswer(body, 'multipart/form-data; boundary=b0undary');
    expect(answer.image.equals(PDF)).toBe(true);
    expect(answer.metadata).toMatchObject({ trackingNumber: '9300189900100000000017', costCents: 710 });
  });

  test('a preamble, an epilogue, bare LF line ends, folded headers and transport padding are read', () => {
    const body = Buffer.from(
      'This is the preamble.\n--xyz   \nContent-Disposition: form-data;\n name="a"\n\nfirst\n--xyz\nContent-Type: text/plain\n\nsecond\n\n--xyz--\nepilogue',
    );
    const parts = parseMultipart(body, 'multipart/mixed; boundary=xyz');
    expect(parts.map((p) => [p.name, p.body.toString()])).toEqual([
      ['a', 'first'],
      [undefined, 'second\n'],
    ]);
  });

  test('a binary part keeps every byte, a delimiter-like run inside it included', () => {
    const body = buildMultipart('B', [
      { headers: { 'Content-Type': 'application/octet-stream' }, body: Buffer.from('--B-not-a-delimiter\r\n--Bx') },
    ]);
    expect(parseMultipart(body, 'multipart/form-data; boundary=B')[0]?.body.toString()).toBe(
      '--B-not-a-delimiter\r\n--Bx',
    );
  });

  test.each([
    ['no boundary parameter', 'first', 'multipart/form-data'],
    [
      'a body cut before its closing delimiter',
      '--b\r\nContent-Type: text/plain\r\n\r\nhalf',
      'multipart/form-data; boundary=b',
    ],
    ['no delimiter at all', 'just text', 'multipart/form-data; boundary=b'],
    [
      'a part with no empty line after its headers',
      '--b\r\nContent-Type: text/plain\r\n--b--',
      'multipart/form-data; boundary=b',
    ],
  ])('%s is an error', (_what, text, type) => {
    expect(() => parseMultipart(Buffer.from(text), type)).toThrow(MultipartError);
  });

  test('the metadata fields are read where the schema puts them and where the EditResponse example nests them', () => {
    const fields = {
      trackingNumber: '9205590006662200704797',
      postage: 26.25,
      SKU: 'DPXX0XXXXC01270',
      fees: [{ price: 4 }],
      extraServices: [{ price: 0.5 }],
    };
    expect(readLabelMetadata(fields)).toMatchObject({
      trackingNumber: fields.trackingNumber,
      costCents: 3075,
      postageCents: 2625,
      sku: fields.SKU,
    });
    expect(readLabelMetadata({ labelAddress: { streetAddress: '1 MAIN ST', ...fields } })).toMatchObject({
      trackingNumber: fields.trackingNumber,
      costCents: 3075,
      sku: fields.SKU,
    });
    expect(readLabelMetadata({ ...fields, SKU: undefined, sku: 'lower' })).toMatchObject({ sku: 'lower' });
    expect(() => readLabelMetadata({ postage: 1 })).toThrow('no tracking number');
  });
});

describe('idempotency keys as USPS wants them', () => {
  test('a UUID goes as it is; anything else becomes the same version-5 UUID every time', () => {
    expect(uspsIdempotencyKey('5D0F1C52-7A1E-4B7E-9A3C-0C1F4E2B9D11')).toBe('5d0f1c52-7a1e-4b7e-9a3c-0c1f4e2b9d11');
    const derived = uspsIdempotencyKey('label-42:1');
    expect(derived).toBe(uspsIdempotencyKey('label-42:1'));
    expect(derived).not.toBe(uspsIdempotencyKey('label-42:2'));
    expect(derived).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test('UUID version 5 as RFC 9562 computes it (its example: www.example.com in the DNS namespace)', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });
});
