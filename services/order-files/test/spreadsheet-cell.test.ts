import { describe, expect, it } from 'vitest';
import { neutralizeCell, restoreCell } from '../src/spreadsheet-cell';

describe('neutralizeCell', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `'=HYPERLINK("http://x","y")`],
    ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
    ['@SUM(1+1)', "'@SUM(1+1)"],
    ['-2+3', "'-2+3"],
    ['\t=1+1', "'\t=1+1"],
    ['\tAda', "'\tAda"],
    ['\r=1+1', "'\r=1+1"],
    ['\rAda', "'\rAda"],
    ['=', "'="],
    ['-', "'-"],
  ])('writes %j as text: %j', (value, cell) => {
    expect(neutralizeCell(value)).toBe(cell);
  });

  // Spreadsheets may fold these to their ASCII forms (NFKC) or skip invisible characters before reading a formula.
  it.each([
    '\uFF1DHYPERLINK("http://x","y")',
    '\uFF0Bcmd',
    '\uFF0D2+3',
    '\uFF20SUM(1)',
    '\uFE66 small equals',
    '\uFE62 small plus',
    '\uFE63 small minus',
    '\uFE6B small at',
    '\u200B=1+1',
    '\uFEFF=1+1',
    '\u200B\uFEFF+1',
    '\u2060@x',
    '\u200B\uFF1D1',
    '\u200B-5',
  ])('writes the look-alike formula start %j as text', (value) => {
    expect(neutralizeCell(value)).toBe(`'${value}`);
    expect(restoreCell(neutralizeCell(value))).toBe(value);
    expect(neutralizeCell(`'${value}`)).toBe(`''${value}`);
  });

  it.each(['Zo\u200Bë', 'a\uFF1Db', '\u00A0=1'])('leaves %j, with a look-alike inside it, unchanged', (value) => {
    expect(neutralizeCell(value)).toBe(value);
  });

  it.each(['-5', '-0.25', '-.5', '+5', '+0.75', '0', '42', '8.5'])('keeps the plain number %j as it is', (value) => {
    expect(neutralizeCell(value)).toBe(value);
  });

  it.each(['--5', '-5-1', '-1e5', '- 5', '-5 ', '-5,000', '-0x10', '+1 555-010-0000', '+15550100 x2'])(
    'treats %j, which only looks numeric, as text',
    (value) => {
      expect(neutralizeCell(value)).toBe(`'${value}`);
    },
  );

  it.each([
    '',
    'Zoë Brontë',
    '1 Main St',
    'a=b',
    '1+1',
    'ada@example.com',
    ' =1+1',
    "'hello",
    // The Amazon shipping confirmation's ordinary values.
    '112-1234567-1234567',
    '12345678901234',
    '2024-05-01',
    'USPS',
    '9400111899223100001234',
    'USPS Priority Mail',
  ])('leaves the ordinary value %j unchanged', (value) => {
    expect(neutralizeCell(value)).toBe(value);
  });

  it('adds one more quote to a value that already starts with quotes before a formula character, so reading it back gives the value and not the formula', () => {
    expect(neutralizeCell("'=1+1")).toBe("''=1+1");
    expect(neutralizeCell("''-2")).toBe("'''-2");
    expect(restoreCell(neutralizeCell("'=1+1"))).toBe("'=1+1");
  });
});

describe('restoreCell', () => {
  it.each([
    ['\'=HYPERLINK("x")', '=HYPERLINK("x")'],
    ["'+cmd", '+cmd'],
    ["'@SUM(1)", '@SUM(1)'],
    ["'-2+3", '-2+3'],
    ["'\tAda", '\tAda'],
    ["'\rAda", '\rAda'],
    ["''=1", "'=1"],
  ])('removes the quote in front of a formula character: %j → %j', (cell, value) => {
    expect(restoreCell(cell)).toBe(value);
  });

  it.each(['', "'hello", "O'Brien", "'5", '-5', '=1+1', "'"])('leaves %j alone', (cell) => {
    expect(restoreCell(cell)).toBe(cell);
  });

  it('undoes neutralizeCell for every kind of value', () => {
    const values = [
      '',
      'Ada',
      '=1+1',
      '+1',
      '+1 555',
      '@x',
      '-2+3',
      '-5',
      '-0.25',
      '\tx',
      '\rx',
      "'",
      "'=1",
      "''+2",
      "'-5",
      "'x",
    ];
    for (const value of values) expect(restoreCell(neutralizeCell(value))).toBe(value);
  });
});
