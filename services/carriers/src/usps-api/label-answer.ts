// The answer to POST /labels/v3/label and /labels/v3/label-reprint, whatever form it takes. domestic-labels.yaml
// lists four for the 200 answer: multipart/form-data (the default: a `labelMetadata` JSON part and a `labelImage`
// part, "always Base64 encoded"), application/vnd.usps.labels+json (one JSON object: the metadata's fields with
// `labelImage` beside them), application/json (listed with the multipart schema and encoding, while the text says
// Accept: application/json "will only affect the metadata part of the multipart response"; so a body under that
// type may be either multipart or a JSON object, and both are read), and XML, which we never ask for.
import { isMultipart, MultipartError, type MultipartPart, parseMultipart } from './multipart';

/** What we keep of `LabelMetadata`. */
export interface LabelMetadata {
  trackingNumber: string;
  /** The pricing SKU. */
  sku?: string;
  /** `postage` plus every `extraServices` and `fees` price, in cents: what USPS charges for the label. */
  costCents?: number;
  postageCents?: number;
  routingInformation?: string;
  raw: Record<string, unknown>;
}

export interface LabelAnswer {
  metadata: LabelMetadata;
  image: Buffer;
  /** The image part's Content-Type, when the answer says it. */
  imageType?: string;
}

/** The answer cannot be read as a label: not retryable by itself, but a replay of the same key may read fine. */
export class LabelAnswerError extends Error {
  override name = 'LabelAnswerError';
}

const BASE64 = /^[A-Za-z0-9+/=_\-\s]+$/;

/** "Ignore the Content-Transfer-Encoding header … The contents of this part are always Base64 encoded." */
export function decodeImage(data: Buffer | string): Buffer {
  const text = typeof data === 'string' ? data : data.toString('latin1');
  const trimmed = text.trim();
  // Raw bytes where base64 was promised would still be a label: taken as they are rather than garbled.
  if (trimmed.startsWith('%PDF') || trimmed.startsWith('^XA') || trimmed.startsWith('\x10^XA')) {
    return typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  }
  if (trimmed === '' || !BASE64.test(trimmed)) throw new LabelAnswerError('label image is not Base64');
  return Buffer.from(
    trimmed.replace(/\s+/g, ''),
    trimmed.includes('-') || trimmed.includes('_') ? 'base64url' : 'base64',
  );
}

const cents = (dollars: unknown): number | undefined => {
  const n = typeof dollars === 'string' && dollars.trim() !== '' ? Number(dollars) : dollars;
  return typeof n === 'number' && Number.isFinite(n) ? Math.round(n * 100) : undefined;
};

const priceSum = (items: unknown): number => {
  const list = Array.isArray(items) ? items : [];
  return list.reduce((sum: number, item) => {
    const c = cents((item as { price?: unknown } | null)?.price);
    return sum + (c ?? 0);
  }, 0);
};

/**
 * The metadata we use. The spec's EditResponse example nests `trackingNumber`, `postage`, `SKU` and the rest inside
 * `labelAddress`, while the schema has them beside it: both are read, the schema's place first. The XML example
 * spells the SKU `sku` once and `SKU` once: both are read.
 */
export function readLabelMetadata(value: unknown): LabelMetadata {
  if (typeof value !== 'object' || value === null) throw new LabelAnswerError('label metadata is not an object');
  const raw = value as Record<string, unknown>;
  const nested = (typeof raw.labelAddress === 'object' && raw.labelAddress !== null ? raw.labelAddress : {}) as Record<
    string,
    unknown
  >;
  const field = (name: string) => raw[name] ?? nested[name];
  // Any 10 to 40 letters and digits, not only an IMpb: the Base64EncodedImagesExample's number has 12 digits.
  const tracking = field('trackingNumber');
  if (typeof tracking !== 'string' || !/^[A-Z0-9]{10,40}$/i.test(tracking.replace(/\s+/g, ''))) {
    throw new LabelAnswerError('label metadata has no tracking number');
  }
  const sku = field('SKU') ?? field('sku');
  const postageCents = cents(field('postage'));
  const extras = priceSum(field('extraServices')) + priceSum(field('fees'));
  const routing = field('routingInformation');
  return {
    trackingNumber: tracking.replace(/\s+/g, ''),
    ...(typeof sku === 'string' && sku !== '' ? { sku } : {}),
    ...(postageCents === undefined ? {} : { postageCents, costCents: postageCents + extras }),
    ...(typeof routing === 'string' && routing !== '' ? { routingInformation: routing } : {}),
    raw,
  };
}

function parseJson(bytes: Buffer, what: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new LabelAnswerError(`${what} is not JSON`);
  }
}

function fromParts(parts: MultipartPart[]): LabelAnswer {
  const named = (name: string) => parts.find((p) => p.name === name);
  // By name first; a part without one is taken by its place: "Extract the first part … as application/json" and
  // "Extract the second part … Base64 decode it".
  const meta = named('labelMetadata') ?? parts.find((p) => !p.name && /json/.test(p.contentType)) ?? parts[0];
  const image = named('labelImage') ?? parts.find((p) => p !== meta && !p.name) ?? parts[1];
  if (!meta) throw new LabelAnswerError('multipart label answer has no metadata part');
  if (!image) throw new LabelAnswerError('multipart label answer has no label image part');
  return {
    metadata: readLabelMetadata(parseJson(meta.body, 'label metadata part')),
    image: decodeImage(image.body),
    imageType: image.contentType,
  };
}

function fromJson(value: unknown): LabelAnswer {
  if (typeof value !== 'object' || value === null) throw new LabelAnswerError('label answer is not an object');
  const obj = value as Record<string, unknown>;
  // LabelMultiPartResponse written as JSON: { labelMetadata, labelImage }; LabelVendorResponse: flat.
  const metadata = obj.labelMetadata !== undefined ? obj.labelMetadata : obj;
  const image = obj.labelImage;
  if (typeof image !== 'string') throw new LabelAnswerError('label answer has no labelImage');
  return { metadata: readLabelMetadata(metadata), image: decodeImage(image) };
}

/** Reads a label answer by its Content-Type, falling back on what the body looks like. */
export function readLabelAnswer(body: Buffer, contentType: string | null): LabelAnswer {
  const type = contentType ?? '';
  try {
    if (isMultipart(type)) return fromParts(parseMultipart(body, type));
    const start = body.subarray(0, 200).toString('latin1').trimStart();
    if (start.startsWith('--')) {
      // A multipart body under a non-multipart type (the application/json case): its first line is the delimiter.
      const boundary = /^--([^\r\n]+)/.exec(start)?.[1]?.trim();
      if (boundary) return fromParts(parseMultipart(body, `multipart/form-data; boundary="${boundary}"`));
    }
    return fromJson(parseJson(body, 'label answer'));
  } catch (err) {
    if (err instanceof MultipartError) throw new LabelAnswerError(err.message);
    throw err;
  }
}
