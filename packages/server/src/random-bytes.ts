import { randomBytes } from 'node:crypto';

/** CSPRNG bytes drawn 4 KB at a time, as Node pools those of randomUUID and randomInt: a draw per use cost more. */
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let used = 0;

/**
 * `size` fresh CSPRNG bytes, never handed out twice: for ids and nonces, which must be unpredictable
 * and unique but are not secret (the pool's bytes stay in memory until it is drawn again). In a
 * server's request a draw of its own cost several times its size alone (the generator's state is
 * cold by then). A view of the pool: copy it to keep it past the next call.
 */
export function pooledRandomBytes(size: number): Buffer {
  if (used + size > pool.length) {
    pool = randomBytes(POOL_SIZE);
    used = 0;
  }
  used += size;
  return pool.subarray(used - size, used);
}
