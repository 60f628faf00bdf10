/**
 * A reader of multipart bodies (RFC 2046, and RFC 7578 for multipart/form-data), enough for what USPS sends: a
 * label is `multipart/form-data` and a SCAN form is described as `multipart/mixed` while listed as
 * `multipart/form-data`, so both are read the same way. Works on bytes, so a binary part survives untouched.
 */

export interface MultipartPart {
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The `name` of its Content-Disposition, when it has one. */
  name?: string;
  filename?: string;
  /** The Content-Type of the part, lower case and without parameters; `text/plain` when absent (RFC 2046 §5.1). */
  contentType: string;
  body: Buffer;
}

export class MultipartError extends Error {
  override name = 'MultipartError';
}

/** A `name=value` parameter of a header value (`boundary`, `name`, `filename`), quoted or not. */
export function headerParameter(value: string, parameter: string): string | undefined {
  const re = new RegExp(`(?:^|;)\\s*${parameter}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, 'i');
  const m = re.exec(value);
  if (!m) return undefined;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2];
}

/** Whether a Content-Type names a multipart body. */
export function isMultipart(contentType: string | null | undefined): boolean {
  return /^\s*multipart\//i.test(contentType ?? '');
}

/** The parts of a multipart body; throws `MultipartError` when it is not one. */
export function parseMultipart(body: Buffer, contentType: string): MultipartPart[] {
  if (!isMultipart(contentType)) throw new MultipartError(`not a multipart body: ${contentType}`);
  const boundary = headerParameter(contentType, 'boundary');
  if (!boundary || boundary.length > 70) throw new MultipartError('multipart body without a usable boundary');
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');

  // Each delimiter starts a line: at the very start of the body, or after CRLF (a bare LF is accepted too, as some
  // servers write one). What comes before the first is the preamble and is ignored.
  // A delimiter line is the delimiter, then `--` (the last one) or only white space to the line's end: a longer
  // run that starts like one (`--boundaryX`) is content.
  const endsLine = (at: number) => {
    let i = at;
    if (body[i] === 0x2d && body[i + 1] === 0x2d) return true;
    while (body[i] === 0x20 || body[i] === 0x09) i++;
    return body[i] === 0x0a || (body[i] === 0x0d && body[i + 1] === 0x0a);
  };
  const starts: { at: number; lineStart: number }[] = [];
  for (let i = body.indexOf(delimiter); i !== -1; i = body.indexOf(delimiter, i + delimiter.length)) {
    if (!endsLine(i + delimiter.length)) continue;
    if (i === 0) starts.push({ at: i, lineStart: 0 });
    else if (body[i - 1] === 0x0a) starts.push({ at: i, lineStart: i >= 2 && body[i - 2] === 0x0d ? i - 2 : i - 1 });
  }
  if (starts.length === 0) throw new MultipartError('no boundary in the multipart body');

  const parts: MultipartPart[] = [];
  for (let k = 0; k < starts.length; k++) {
    const start = starts[k] as { at: number; lineStart: number };
    const afterDelimiter = start.at + delimiter.length;
    if (body[afterDelimiter] === 0x2d && body[afterDelimiter + 1] === 0x2d) return parts; // `--boundary--`: the end
    const next = starts[k + 1];
    if (!next) throw new MultipartError('multipart body ends without its closing boundary');
    // The rest of the delimiter line (transport padding) ends at the first line break.
    const lineEnd = body.indexOf(0x0a, afterDelimiter);
    if (lineEnd === -1 || lineEnd > next.lineStart) throw new MultipartError('malformed multipart delimiter line');
    parts.push(partOf(body.subarray(lineEnd + 1, next.lineStart)));
  }
  throw new MultipartError('multipart body ends without its closing boundary');
}

function partOf(raw: Buffer): MultipartPart {
  // Headers end at the first empty line; a part with no headers starts with that empty line.
  let headerEnd: number;
  let bodyStart: number;
  if (raw[0] === 0x0d && raw[1] === 0x0a) [headerEnd, bodyStart] = [0, 2];
  else if (raw[0] === 0x0a) [headerEnd, bodyStart] = [0, 1];
  else {
    const crlf = raw.indexOf('\r\n\r\n');
    const lf = raw.indexOf('\n\n');
    if (crlf !== -1 && (lf === -1 || crlf < lf)) [headerEnd, bodyStart] = [crlf, crlf + 4];
    else if (lf !== -1) [headerEnd, bodyStart] = [lf, lf + 2];
    else throw new MultipartError('multipart part without an empty line after its headers');
  }
  const headers: Record<string, string> = {};
  let last: string | undefined;
  for (const line of raw.subarray(0, headerEnd).toString('latin1').split(/\r?\n/)) {
    if (line === '') continue;
    if (/^[ \t]/.test(line) && last) {
      headers[last] += ` ${line.trim()}`; // a folded header line (RFC 5322 §2.2.3)
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartError('malformed multipart part header');
    last = line.slice(0, colon).trim().toLowerCase();
    headers[last] = line.slice(colon + 1).trim();
  }
  const disposition = headers['content-disposition'] ?? '';
  const type = (headers['content-type'] ?? 'text/plain').split(';')[0]?.trim().toLowerCase() || 'text/plain';
  return {
    headers,
    name: headerParameter(disposition, 'name'),
    filename: headerParameter(disposition, 'filename'),
    contentType: type,
    body: raw.subarray(bodyStart),
  };
}

/** Writes a multipart body; used by the fake carrier and the tests that feed the reader. */
export function buildMultipart(
  boundary: string,
  parts: readonly { headers: Record<string, string>; body: Buffer | string }[],
): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head = Object.entries(part.headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    chunks.push(Buffer.from(`--${boundary}\r\n${head}\r\n`, 'latin1'));
    chunks.push(typeof part.body === 'string' ? Buffer.from(part.body, 'utf8') : part.body);
    chunks.push(Buffer.from('\r\n', 'latin1'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return Buffer.concat(chunks);
}
