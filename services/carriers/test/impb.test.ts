import { describe, expect, it } from 'vitest';
import { buildImpb, computeMod10CheckDigit, formatTrackingNumber, isValidImpb, isValidMailerId } from '../src/index';

// Tracking numbers printed on real USPS labels, as collected by the tracking_number_data project, and the
// 22-digit IMpb embedded in two published 34-digit (AI 420 + ZIP+4) barcodes.
const PUBLISHED_IMPB = [
  '9505 5110 6960 5048 6006 24',
  '9400 1112 0108 0805 4830 16',
  '9361 2898 7870 0317 6337 95',
  '9405803699300124287899',
  '9200190132607600833457',
  '9261290113185417468510',
];

describe('GS1 mod-10 check digit', () => {
  it('matches hand-computed values (weights 3,1,3,… from the right)', () => {
    expect(computeMod10CheckDigit('0')).toBe(0);
    expect(computeMod10CheckDigit('1')).toBe(7);
    // 5*3 + 4 + 3*3 + 2 + 1*3 = 33 → 7
    expect(computeMod10CheckDigit('12345')).toBe(7);
    // The EAN-13 used as the textbook GS1 example: 400638133393 → 1
    expect(computeMod10CheckDigit('400638133393')).toBe(1);
  });

  it('reproduces the check digit of published USPS tracking numbers', () => {
    for (const tracking of PUBLISHED_IMPB) {
      const digits = tracking.replace(/\s/g, '');
      expect(computeMod10CheckDigit(digits.slice(0, -1)), tracking).toBe(Number(digits.at(-1)));
    }
    // 20-digit legacy numbers use the same scheme.
    expect(computeMod10CheckDigit('0307179000052348374')).toBe(1);
  });

  it('rejects anything but digits', () => {
    expect(() => computeMod10CheckDigit('12a4')).toThrow();
    expect(() => computeMod10CheckDigit('')).toThrow();
  });
});

describe('isValidImpb', () => {
  it('accepts published USPS IMpb tracking numbers, with or without spaces', () => {
    for (const tracking of PUBLISHED_IMPB) expect(isValidImpb(tracking), tracking).toBe(true);
  });

  it('rejects a wrong check digit, a wrong length and a non-IMpb channel', () => {
    expect(isValidImpb('9400111201080805483017')).toBe(false);
    expect(isValidImpb('940011120108080548301')).toBe(false);
    expect(isValidImpb('94001112010808054830166')).toBe(false);
    // 91 is the pre-IMpb channel: valid mod 10 but not an IMpb.
    expect(isValidImpb('9101 1234 5678 9000 0000 13')).toBe(false);
    expect(isValidImpb('9200000000000000000000')).toBe(false);
  });
});

describe('buildImpb', () => {
  it('uses channel 93 and a 10-digit serial with a 6-digit mailer id', () => {
    const tracking = buildImpb({ serviceTypeCode: '055', mailerId: '899999', serial: '0001234567' });
    expect(tracking).toMatch(/^93055899999000123456\d{2}$/);
    expect(tracking).toHaveLength(22);
    expect(isValidImpb(tracking)).toBe(true);
  });

  it('uses channel 92 and a 7-digit serial with a 9-digit mailer id', () => {
    const tracking = buildImpb({ serviceTypeCode: '001', mailerId: '901234567', serial: '7654321' });
    expect(tracking.slice(0, 21)).toBe('920019012345677654321');
    expect(isValidImpb(tracking)).toBe(true);
  });

  it('refuses mailer ids whose length does not match their first digit', () => {
    expect(isValidMailerId('899999')).toBe(true);
    expect(isValidMailerId('912345678')).toBe(true);
    expect(isValidMailerId('912345')).toBe(false);
    expect(isValidMailerId('812345678')).toBe(false);
    expect(() => buildImpb({ serviceTypeCode: '055', mailerId: '912345', serial: '0000000000' })).toThrow();
  });
});

describe('formatTrackingNumber', () => {
  it('groups the digits in fours as printed under the barcode', () => {
    expect(formatTrackingNumber('9400111201080805483016')).toBe('9400 1112 0108 0805 4830 16');
  });
});
