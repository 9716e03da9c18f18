import { describe, expect, it } from 'vitest';
import { pooledRandomBytes, pooledRandomHex } from './random-bytes.ts';

describe('the pool of CSPRNG bytes', () => {
  it('hands out each byte once, as bytes or as hex, across the pools it draws', () => {
    const draws: string[] = [];
    // 3,000 draws of 6 bytes are 18,000 bytes: the pool (4 KB) is drawn again four times.
    for (let i = 0; i < 3_000; i++) {
      const hex = i % 3 === 0 ? pooledRandomBytes(6).toString('hex') : pooledRandomHex(6);
      expect(hex).toMatch(/^[0-9a-f]{12}$/);
      draws.push(hex);
    }
    // 48 random bits each: a repeat among 3,000 honest draws has a chance of about 1 in 60 million.
    // A hex draw cut from bytes that a draw before it was given repeats that draw.
    expect(new Set(draws).size).toBe(draws.length);
  });

  it('gives hex of the length asked for, the last bytes of a pool included', () => {
    for (let i = 0; i < 1_000; i++) expect(pooledRandomHex(10)).toMatch(/^[0-9a-f]{20}$/);
  });
});
