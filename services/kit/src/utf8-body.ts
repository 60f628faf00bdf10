import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

// JSON and text bodies are UTF-8. Read leniently, as Fastify does by default, bytes that are not UTF-8 became
// U+FFFD and were stored as if the sender had typed it; they are refused instead, naming the field that held them.

const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

export const notUtf8Message = (field: string) => `${field} is not valid UTF-8 text`;
const keyNotUtf8Message = (field: string) => `${field} has a field name that is not valid UTF-8 text`;

/**
 * The byte ranges of `bytes` that are not UTF-8, each a maximal subpart as the WHATWG decoder replaces it with
 * one U+FFFD: overlong forms, encoded surrogates, code points past U+10FFFF, stray and missing continuation bytes.
 */
function invalidRanges(bytes: Uint8Array): [number, number][] {
  const ranges: [number, number][] = [];
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b === 0xe0) [need, lo] = [2, 0xa0];
    else if (b === 0xed) [need, hi] = [2, 0x9f];
    else if (b >= 0xe1 && b <= 0xef) need = 2;
    else if (b === 0xf0) [need, lo] = [3, 0x90];
    else if (b === 0xf4) [need, hi] = [3, 0x8f];
    else if (b >= 0xf1 && b <= 0xf3) need = 3;
    else {
      ranges.push([i, i + 1]);
      i++;
      continue;
    }
    let j = 1;
    for (; j <= need; j++) {
      const c = bytes[i + j];
      if (c === undefined || c < lo || c > hi) break;
      lo = 0x80;
      hi = 0xbf;
    }
    if (j > need) {
      i += need + 1;
    } else {
      ranges.push([i, i + j]);
      i += j;
    }
  }
  return ranges;
}

/** A private-use character that `text` holds neither as itself nor as a JSON escape, to mark the bad bytes with. */
function unusedMarker(text: string): string | null {
  const lower = text.toLowerCase();
  for (let code = 0xe000; code <= 0xf8ff; code++) {
    const marker = String.fromCharCode(code);
    if (!text.includes(marker) && !lower.includes(`\\u${code.toString(16)}`)) return marker;
  }
  return null;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const join = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;

/**
 * The message naming where a JSON body holds bytes that are not UTF-8: each run of them is replaced by a
 * character found nowhere else in the body, and the first string (or field name) in the order sent holding it is
 * the field. A real U+FFFD the sender wrote, as bytes or as `\ufffd`, is never mistaken for one. Bytes outside any
 * string, or in a body that is not JSON, name the body.
 */
function describeJsonBody(bytes: Uint8Array, ranges: [number, number][]): string {
  const marker = unusedMarker(lenient.decode(bytes));
  if (!marker) return notUtf8Message('body');
  let text = '';
  let at = 0;
  for (const [start, end] of ranges) {
    text += lenient.decode(bytes.subarray(at, start)) + marker;
    at = end;
  }
  text += lenient.decode(bytes.subarray(at));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return notUtf8Message('body');
  }
  // Depth first in the order sent, without recursion: a deeply nested body cannot exhaust the stack.
  const stack: { value: unknown; path: string }[] = [{ value: parsed, path: '' }];
  for (let place = stack.pop(); place; place = stack.pop()) {
    const { value, path } = place;
    if (typeof value === 'string') {
      if (value.includes(marker)) return notUtf8Message(path || 'body');
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: join(path, i) });
    } else if (isObject(value)) {
      const keys = Object.keys(value);
      if (keys.some((k) => k.includes(marker))) return keyNotUtf8Message(path || 'body');
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ value: value[key], path: join(path, key) });
      }
    }
  }
  return notUtf8Message('body');
}

/**
 * The message naming where a JSON body's bytes are not UTF-8, or null when they all are: for callers that read a
 * body themselves (the gateway reads a login to count it), so they refuse it as the services do.
 */
export function notUtf8JsonProblem(bytes: Uint8Array): string | null {
  try {
    strict.decode(bytes);
    return null;
  } catch {
    return describeJsonBody(bytes, invalidRanges(bytes));
  }
}

/** `bytes` as text, or an error naming where they are not UTF-8. A leading byte order mark is dropped. */
function decode(bytes: Buffer, describe: (ranges: [number, number][]) => string): string | AppError {
  try {
    return strict.decode(bytes);
  } catch {
    return new AppError('VALIDATION_FAILED', describe(invalidRanges(bytes)));
  }
}

/**
 * Replaces Fastify's JSON and plain-text parsers with ones that read the body as strict UTF-8; what they do with
 * the text afterwards (Fastify's own JSON parser, prototype poisoning refused) is unchanged.
 */
export function parseBodiesAsStrictUtf8(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const text = decode(body as Buffer, (ranges) => describeJsonBody(body as Buffer, ranges));
    if (typeof text !== 'string') return done(text, undefined);
    parseJson(request, text, done);
  });
  app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_request, body, done) => {
    const text = decode(body as Buffer, () => notUtf8Message('body'));
    if (typeof text !== 'string') return done(text, undefined);
    done(null, text);
  });
}
