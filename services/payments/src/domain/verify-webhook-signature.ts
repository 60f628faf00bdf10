import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/**
 * BTCPay signs each delivery with `BTCPay-Sig: sha256=<hex HMAC-SHA256 of the
 * raw body>`. The check runs over the exact bytes received, before any
 * parsing, and compares in constant time so the secret cannot be guessed byte
 * by byte from response times.
 */
export function isValidWebhookSignature(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  const m = header ? SIGNATURE.exec(header.trim()) : null;
  if (!m) return false;
  const given = Buffer.from((m[1] as string).toLowerCase(), 'hex');
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}
