/**
 * Kafka's murmur2 over the key's UTF-8 bytes. Using the same function as the
 * Java client and kafkajs's default partitioner means a key maps to the same
 * partition number under either adapter when the partition counts match.
 */
export function murmur2(key: string): number {
  const data = Buffer.from(key, 'utf8');
  const length = data.length;
  const m = 0x5bd1e995;
  let h = 0x9747b28c ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  const rest = length & 3;
  if (rest === 3) h ^= data[whole + 2]! << 16;
  if (rest >= 2) h ^= data[whole + 1]! << 8;
  if (rest >= 1) {
    h ^= data[whole]!;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

export function partitionFor(key: string, partitions: number): number {
  return (murmur2(key) & 0x7fffffff) % partitions;
}
