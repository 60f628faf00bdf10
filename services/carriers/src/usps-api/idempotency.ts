import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The namespace of the name-based UUIDs below (itself a fixed random UUID): changing it would buy labels twice. */
export const IDEMPOTENCY_NAMESPACE = '3b0c8a5e-6f0d-4c1b-9a57-2f6c3d9e8b41';

/**
 * The X-Idempotency-Key USPS gets for one of our idempotency keys. The Labels API wants a UUID there ("must be a
 * randomly generated UUID and unique per customer (CRID)", `format: uuid`). A key that already is one (a label id)
 * goes as it is, in lower case; any other key (a bulk row's `id:attempt`) becomes a UUID version 5 (RFC 9562 §5.5,
 * SHA-1 of the key under `IDEMPOTENCY_NAMESPACE`): the same key always gives the same UUID, on every process, so a
 * retried purchase replays the first one instead of buying again, and different keys give different UUIDs.
 */
export function uspsIdempotencyKey(key: string): string {
  if (UUID.test(key)) return key.toLowerCase();
  return uuidV5(key, IDEMPOTENCY_NAMESPACE);
}

export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const bytes = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
