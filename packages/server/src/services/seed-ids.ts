import { randomFillSync, randomUUID } from 'node:crypto';
import type { IdGenerator } from '../ids.ts';

const POOL_BYTES = 1 << 16;

/**
 * The server's id formats drawn from one pool of CSPRNG bytes refilled now and then: a seed takes
 * millions of ids, and a system call for each would cost more than writing the rows.
 */
export function pooledIds(): IdGenerator {
  const pool = Buffer.alloc(POOL_BYTES);
  let offset = POOL_BYTES;
  const take = (count: number): number => {
    if (offset + count > POOL_BYTES) {
      randomFillSync(pool);
      offset = 0;
    }
    const start = offset;
    offset += count;
    return start;
  };
  // A byte below 250 gives an unbiased digit; the rest are drawn again.
  const digit = (): number => {
    for (;;) {
      const byte = pool[take(1)]!;
      if (byte < 250) return byte % 10;
    }
  };
  return {
    charge: () => {
      let id = 'C';
      for (let index = 0; index < 20; index++) id += digit();
      return id;
    },
    uuid: () => randomUUID(),
    prefixed: (prefix) => {
      const start = take(12);
      return `${prefix}_${pool.toString('hex', start, start + 12)}`;
    },
  };
}
