/**
 * UTF-8 text once read as Windows-1252 and saved again (Excel opening a UTF-8 CSV, then saving it) shows
 * `JosÃ©` for `José`, `â€™` for `’`. Such a cell is the Windows-1252 spelling of UTF-8 bytes: written back to those
 * bytes it decodes strictly as UTF-8. Anything that does not (a genuine `Ã`, a `é` typed in Excel) stays as it is.
 */

// Windows-1252's 0x80–0x9F, by the character it shows (the others of 0x00–0xFF, and its five unassigned bytes, are themselves).
const CP1252_HIGH: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  ˆ: 0x88,
  '‰': 0x89,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

/** A UTF-8 lead byte (Â–ô as Windows-1252) followed by a continuation byte (0x80–0xBF as Windows-1252). */
const SUSPECT =
  /[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013-\u2122]/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function repairMojibake(cell: string): string {
  if (!SUSPECT.test(cell)) return cell;
  const bytes = new Uint8Array(cell.length);
  for (let i = 0; i < cell.length; i++) {
    const c = cell.charCodeAt(i);
    const byte = c <= 0xff ? c : CP1252_HIGH[cell[i]!];
    if (byte === undefined) return cell;
    bytes[i] = byte;
  }
  try {
    return utf8.decode(bytes);
  } catch {
    return cell;
  }
}
