import { describe, expect, test } from 'vitest';
import { murmur2, partitionFor } from '../../src/bus/partitioner';

describe('partitioner', () => {
  // Reference values from Kafka's own tests (UtilsTest.testMurmur2), so keys land where Kafka would put them.
  test.each([
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ['abc', 479470107],
  ])('murmur2(%j) matches Kafka', (key, expected) => {
    expect(murmur2(key)).toBe(expected);
  });

  test('partitions are stable and within range', () => {
    for (let i = 0; i < 200; i++) {
      const p = partitionFor(`key-${i}`, 4);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(4);
      expect(partitionFor(`key-${i}`, 4)).toBe(p);
    }
  });
});
