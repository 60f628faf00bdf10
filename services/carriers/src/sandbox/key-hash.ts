import { createHash } from 'node:crypto';

/** Deterministic digits from an idempotency key: the same key must always give the same label. */
export function digitsFromKey(key: string, length: number): string {
  const hash = createHash('sha256').update(`serial:${key}`).digest();
  // 128 bits reduced mod 10^length keeps the bias far below anything a test or a collision count could see.
  const value = hash.readBigUInt64BE(0) * 2n ** 64n + hash.readBigUInt64BE(8);
  return (value % 10n ** BigInt(length)).toString().padStart(length, '0');
}

/** A number in [0, 1) fixed by the key, independent of the serial, used to fail a stable fraction of keys. */
export function unitIntervalFromKey(key: string): number {
  return createHash('sha256').update(`failure:${key}`).digest().readUInt32BE(0) / 2 ** 32;
}
