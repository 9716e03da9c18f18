import { randomBytes } from 'node:crypto';

/** CSPRNG bytes drawn 4 KB at a time, as Node pools those of randomUUID and randomInt: a draw per use cost more. */
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let used = 0;

/**
 * `size` fresh CSPRNG bytes, never handed out twice: for ids and nonces, which must be unpredictable
 * and unique but are not secret (the pool's bytes sit in memory until they are handed out). In a
 * server's request a draw of its own cost several times what it costs in a loop (the generator's
 * state is cold by then). The bytes are a view of the pool, which is never written again.
 */
export function pooledRandomBytes(size: number): Buffer {
  if (used + size > pool.length) {
    pool = randomBytes(POOL_SIZE);
    used = 0;
  }
  used += size;
  return pool.subarray(used - size, used);
}
