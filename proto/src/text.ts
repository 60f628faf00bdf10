// No schema library here: the browser bundle imports these rules.

/**
 * What text the system accepts, for every service (checked once at the HTTP boundary by
 * services/kit) and for the browser (the bulk table flags a cell before anything is sent).
 *
 * - Nowhere: U+0000 (PostgreSQL text and jsonb cannot hold it), unpaired UTF-16 surrogates
 *   (not Unicode: they cannot be written as UTF-8, and Node would silently store U+FFFD), and
 *   the other control characters (C0 except tab, line feed and carriage return; DEL; C1), which
 *   no keyboard types and which garble labels, CSV and TSV files and logs.
 * - Tabs and line breaks (tab, LF, CR, U+2028, U+2029) only in fields marked multiline. Names,
 *   addresses, SKUs, ids and the like are one line on a label and one cell in a file; only
 *   free text (passwords, internal memos) is marked.
 */
export type TextProblem = 'not-allowed' | 'line-break';

/** The JSON Schema keyword that marks a string field as free text that may hold tabs and line breaks. */
export const MULTILINE_KEYWORD = 'multiline';

/** The first problem of `text`, or null when it may be stored as it is. One pass, no allocation. */
export function textProblem(text: string, isMultiline = false): TextProblem | null {
  let hasLineBreak = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      if (c !== 0x09 && c !== 0x0a && c !== 0x0d) return 'not-allowed';
      hasLineBreak = true;
    } else if (c === 0x2028 || c === 0x2029) {
      hasLineBreak = true;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A high surrogate must be followed by a low one, which is then skipped with it; a low one alone is an error.
      const next = text.charCodeAt(i + 1);
      if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return 'not-allowed';
      i++;
    }
  }
  return hasLineBreak && !isMultiline ? 'line-break' : null;
}

/** The message for a field whose text has `problem`, naming the field as the user knows it. */
export function textProblemMessage(field: string, problem: TextProblem): string {
  return problem === 'line-break'
    ? `${field} must be a single line without tabs`
    : `${field} contains a character that is not allowed`;
}
