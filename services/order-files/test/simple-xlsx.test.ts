import { type CellObject, CFB, utils, type WorkSheet, write } from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { readOrderFile } from '../src/index';
import { readSimpleWorkbook } from '../src/simple-xlsx';
import { readWorkbookGrid, readWorkbookGridWithSheetJs } from '../src/workbook';
import { ctx, readFixture, WALMART_HEADERS, xlsxBytes } from './helpers';

// The fast reader must give SheetJS's grid cell for cell, or step aside (null) for SheetJS to read the file.

function expectSameAsSheetJs(bytes: Uint8Array): void {
  const fast = readSimpleWorkbook(bytes);
  expect(fast, 'the fast reader takes this workbook').not.toBeNull();
  expect(fast).toEqual(readWorkbookGridWithSheetJs(bytes));
}

/** A workbook SheetJS writes from cell objects, as the bench and many tools write them. */
function sheetJsBook(cells: (CellObject | null)[][], options: { sst?: boolean; compression?: boolean } = {}) {
  const sheet: WorkSheet = {};
  let maxC = 0;
  cells.forEach((row, r) => {
    row.forEach((cell, c) => {
      if (!cell) return;
      sheet[utils.encode_cell({ r, c })] = cell;
      maxC = Math.max(maxC, c);
    });
  });
  sheet['!ref'] = utils.encode_range({ s: { r: 0, c: 0 }, e: { r: cells.length - 1, c: maxC } });
  const book = utils.book_new();
  utils.book_append_sheet(book, sheet, 'Po Details');
  return new Uint8Array(
    write(book, { type: 'array', bookType: 'xlsx', bookSST: options.sst, compression: options.compression }),
  );
}

const s = (v: string): CellObject => ({ t: 's', v });
const n = (v: number): CellObject => ({ t: 'n', v });

const MIXED: (CellObject | null)[][] = [
  WALMART_HEADERS.map(s),
  [
    s('108829140371'),
    n(200011938472615),
    s('2025-09-22'),
    s('Zoë & Ana <O\'Brien> "quoted"'),
    n(4155550142),
    s('  2187 Larkspur Ave  '),
    null,
    s('San Mateo'),
    s('CA'),
    n(2134),
    n(1),
    s('Acknowledged'),
    s('Mug 11 oz, white 😀 — ünïcode'),
    n(9),
    s('MUG-11OZ-WHT'),
  ],
  [
    n(0.1 + 0.2),
    n(-0),
    n(1e-7),
    n(1e21),
    n(-12.5),
    n(123456789012),
    n(2147483648),
    { t: 'b', v: true },
    { t: 'b', v: false },
    { t: 'e', v: 0x07 },
    { t: 'n', v: 3, f: '1+2' },
    { t: 's', v: 'ab', f: '"a"&"b"' },
    s(''),
    s('line one\nline two'),
    s('tab\there'),
  ],
  [],
  [null, null, null, s('after an empty row')],
  [s('&amp; stays &amp;lt; as typed'), s('_x0041_ looks like an escape'), s('back\\slash')],
];

describe('the fast workbook reader', () => {
  it('reads the Walmart sample exactly as SheetJS does', () => {
    expectSameAsSheetJs(readFixture('walmart-orders-sample.xlsx'));
  });

  it.each([
    // 200 Walmart order lines (ids as text and numbers, ZIPs with and without zeros, accents, curly quotes,
    // a wrapped cell), written with XlsxWriter 3.2 (shared strings and styles as Excel writes them, plus a
    // formula, a boolean and rich text) and openpyxl 3.1 (inline strings, a boolean).
    ['orders-xlsxwriter.xlsx'],
    ['orders-openpyxl.xlsx'],
  ])('reads %s, written by another library, as SheetJS does', (name) => {
    expectSameAsSheetJs(readFixture(name));
  });

  it.each([
    ['inline text', { sst: false, compression: false }],
    ['shared strings', { sst: true, compression: false }],
    ['shared strings, deflated as Excel writes them', { sst: true, compression: true }],
  ])('reads text, numbers, booleans, errors, formulas and empty cells as SheetJS does (%s)', (_, options) => {
    const bytes = sheetJsBook(MIXED, options);
    expectSameAsSheetJs(bytes);
    // The text Excel shows: long ids in full, General numbers as Excel writes them.
    const grid = readWorkbookGrid(bytes);
    expect(grid.rows[1]!.slice(0, 5)).toEqual([
      '108829140371',
      '200011938472615',
      '2025-09-22',
      'Zoë & Ana <O\'Brien> "quoted"',
      '4155550142',
    ]);
    expect(grid.rows[2]!.slice(0, 10)).toEqual([
      '0.3',
      '0',
      '0.0000001',
      '1E+21',
      '-12.5',
      '123456789012',
      '2147483648',
      'TRUE',
      'FALSE',
      '',
    ]);
    expect(grid.rowNumbers).toEqual([1, 2, 3, 5, 6]);
  });

  it('reads a workbook of generated order lines as SheetJS does', () => {
    const rows = Array.from({ length: 300 }, (_, i) => [
      String(108_829_140_000 + i),
      200_011_938_000_000 + i,
      i % 7 === 0 ? null : `Customer ${i} ${'ÀéîõüÇ'[i % 6]}`,
      i % 3 === 0 ? 90_000 + i : `0${1000 + i}`,
      i % 5 === 0 ? 1.25 * i : i,
    ]);
    const cells = rows.map((r) => r.map((v) => (v === null ? null : typeof v === 'number' ? n(v) : s(v))));
    expectSameAsSheetJs(sheetJsBook(cells));
    expectSameAsSheetJs(sheetJsBook(cells, { sst: true, compression: true }));
  });

  it('agrees with SheetJS on workbooks of random cells', () => {
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pieces = [
      'a',
      'Zoë',
      ' ',
      '&',
      '<',
      '>',
      '"',
      "'",
      '\n',
      '\r\n',
      '\t',
      '_x0041_',
      '&amp;',
      '😀',
      '0',
      '-',
      '=',
      '汉',
    ];
    const cell = (): CellObject | null => {
      switch (random(6)) {
        case 0:
          return null;
        case 1:
          return n((random(2_000_000) - 1_000_000) / 10 ** random(8));
        case 2:
          return n(random(2 ** 31) * 2 ** random(30));
        case 3:
          return { t: 'b', v: random(2) === 1 };
        default:
          return s(Array.from({ length: random(6) }, () => pieces[random(pieces.length)]).join(''));
      }
    };
    let taken = 0;
    for (let book = 0; book < 24; book++) {
      const cells = Array.from({ length: 1 + random(30) }, () => Array.from({ length: random(12) }, cell));
      const bytes = sheetJsBook(cells, { sst: book % 2 === 0, compression: book % 3 === 0 });
      if (readSimpleWorkbook(bytes)) taken++;
      expect(readWorkbookGrid(bytes)).toEqual(readWorkbookGridWithSheetJs(bytes));
    }
    // Only cells SheetJS writes with a character escape (a carriage return as _x000D_) are left to it.
    expect(taken).toBeGreaterThan(0);
  });

  it('reads shared rich text without its phonetic guides, inline strings, styles and sparse cells as SheetJS does', () => {
    const bytes = workbookXml({
      strings: [
        '<si><t>plain</t></si>',
        '<si><t xml:space="preserve">  spaced  </t></si>',
        '<si><r><rPr><b/></rPr><t>Bold</t></r><r><t xml:space="preserve"> and plain</t></r></si>',
        '<si><r><t>漢字</t></r><rPh sb="0" eb="2"><t>かんじ</t></rPh><phoneticPr fontId="1"/></si>',
        '<si><t>A&amp;B &lt;tag&gt; &quot;q&quot; &apos;a&apos; &#233; &#x4E2D; _x000D_ end</t></si>',
        '<si><t>CR_x000D_\nLF</t></si>',
        '<si><t/></si>',
        '<si></si>',
      ],
      styles:
        '<numFmts count="1"><numFmt numFmtId="164" formatCode="0.00"/></numFmts>' +
        '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf fontId="1" applyFont="1"/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs>' +
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
        '<extLst><ext uri="{EB79DEF2-80B8-43e5-95BD-54CBDDF9020C}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"><x14:slicerStyles defaultSlicerStyle="SlicerStyleLight1"/></ext></extLst>',
      rows: [
        '<row r="1" spans="1:5" x14ac:dyDescent="0.25"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s" s="1"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s" s="2"><v>4</v></c></row>',
        '<row r="2"><c r="A2" t="s"><v>5</v></c><c r="B2" t="s"><v>6</v></c><c r="C2" t="s"><v>7</v></c><c r="D2" t="s"><v>8</v></c></row>',
        '<row r="3"><c r="A3" t="inlineStr"><is><t>inline</t></is></c><c r="B3" t="inlineStr"><is><r><t>rich</t></r><r><rPr><i/></rPr><t xml:space="preserve"> inline</t></r></is></c><c r="C3" t="inlineStr"/><c r="AA3" s="1"><v>42.125</v></c></row>',
        '<row r="4"><c r="A4" s="1"/><c r="B4" t="s"/><c r="C4"><v></v></c></row>',
        '<row r="6" ht="20" customHeight="1"><c r="B6" t="str"><v>x &amp;amp;lt; y</v></c><c r="C6" t="b"><v>1</v></c><c r="D6" t="e"><v>#N/A</v></c><c r="E6" t="str"/><c r="F6"><f>SUM(A1:A2)</f><v>7</v></c><c r="G6" t="b" s="1"><v>0</v></c></row>',
        '<row r="8"/>',
        '<row r="9">\n  <c r="C9" t="s" cm="1"><v>0</v></c>\n</row>',
      ],
    });
    expectSameAsSheetJs(bytes);
    expect(readSimpleWorkbook(bytes)!.rows[3]).toEqual(['', 'x &lt; y', 'TRUE', '', '', '7', 'FALSE']);
  });

  it('gives way to SheetJS for shapes it does not take, which still read the same', () => {
    const formatted = xlsxBytes([
      ['PO#', 'Zip', 'Order Date'],
      ['1', { n: 501, z: '00000' }, { n: 45922, z: 'yyyy-mm-dd' }],
    ]);
    const book = utils.book_new();
    utils.book_append_sheet(book, utils.aoa_to_sheet([['notes']]), 'Notes');
    utils.book_append_sheet(book, utils.aoa_to_sheet([WALMART_HEADERS]), 'Po Details');
    const twoSheets = new Uint8Array(write(book, { type: 'array', bookType: 'xlsx' }));
    const uncalculated = workbookXml({ rows: ['<row r="1"><c r="A1"><f>1+2</f></c></row>'] });
    const isoDate = workbookXml({ rows: ['<row r="1"><c r="A1" t="d"><v>2025-09-22</v></c></row>'] });
    const noRef = workbookXml({ rows: ['<row r="1"><c t="str"><v>x</v></c></row>'] });
    const numericEscape = workbookXml({ rows: ['<row r="1"><c r="A1" t="str"><v>&#233;</v></c></row>'] });
    const invalidUtf8 = workbookXml({ rows: ['<row r="1"><c r="A1" t="str"><v>\u00ff</v></c></row>'], latin1: true });
    for (const bytes of [formatted, twoSheets, uncalculated, isoDate, noRef, numericEscape, invalidUtf8]) {
      expect(readSimpleWorkbook(bytes)).toBeNull();
      expect(readWorkbookGrid(bytes)).toEqual(readWorkbookGridWithSheetJs(bytes));
    }
    // SheetJS takes a container with an OpenDocument manifest for an OpenDocument file, whatever else it holds.
    const withManifest = workbookXml({ rows: ['<row r="1"><c r="A1" t="str"><v>x</v></c></row>'], manifest: true });
    expect(readSimpleWorkbook(withManifest)).toBeNull();
    // Through the product's reader, a formatted ZIP keeps its zeros as before.
    expect(readWorkbookGrid(formatted).rows[1]).toEqual(['1', '00501', '2025-09-22']);
  });

  it('leaves a damaged workbook to SheetJS, which refuses it as before', () => {
    const bytes = sheetJsBook(MIXED, { sst: true, compression: true });
    const truncated = bytes.slice(0, Math.floor(bytes.length * 0.6));
    expect(readSimpleWorkbook(truncated)).toBeNull();
    expect(() => readOrderFile({ name: 'orders.xlsx', data: truncated }, ctx())).toThrow(
      'This .xlsx file could not be read: it may be damaged or only partly downloaded',
    );
  });
});

/** A workbook assembled from its XML parts, for the shapes SheetJS's writer never makes. */
function workbookXml(parts: {
  rows: string[];
  strings?: string[];
  styles?: string;
  /** The sheet in Latin-1 rather than UTF-8. */
  latin1?: boolean;
  /** An OpenDocument manifest beside the parts. */
  manifest?: boolean;
}): Uint8Array {
  const files: Record<string, string> = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      (parts.strings
        ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
        : '') +
      (parts.styles
        ? '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
        : '') +
      '</Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    'xl/workbook.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Po Details" sheetId="1" r:id="rId1"/></sheets></workbook>',
    'xl/_rels/workbook.xml.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
      '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>' +
      '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
    'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" mc:Ignorable="x14ac"><dimension ref="A1:AA9"/><sheetFormatPr defaultRowHeight="15" x14ac:dyDescent="0.25"/><sheetData>${parts.rows.join('')}</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`,
  };
  if (parts.strings) {
    files['xl/sharedStrings.xml'] =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${parts.strings.length}" uniqueCount="${parts.strings.length}">${parts.strings.join('')}</sst>`;
  }
  if (parts.styles) {
    files['xl/styles.xml'] =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${parts.styles}</styleSheet>`;
  }
  if (parts.manifest) files['META-INF/manifest.xml'] = '<manifest:manifest/>';
  const zip = CFB.utils.cfb_new();
  for (const [path, text] of Object.entries(files)) {
    const bytes =
      parts.latin1 && path.includes('worksheets/')
        ? Uint8Array.from(text, (c) => c.charCodeAt(0))
        : new TextEncoder().encode(text);
    CFB.utils.cfb_add(zip, path, bytes);
  }
  return new Uint8Array(CFB.write(zip, { fileType: 'zip', type: 'array', compression: true }) as ArrayLike<number>);
}
