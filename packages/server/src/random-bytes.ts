import { randomBytes } from 'node:crypto';

/** CSPRNG bytes drawn 4 KB at a time, as Node pools those of randomUUID and randomInt: a draw per use cost more. */
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
/** The pool as hex, made when first asked for: cut from for ids, which are text. */
let poolHex: string | undefined;
let used = 0;

/** Where `size` bytes not handed out before begin in the pool, drawing a new pool when it has too few. */
function take(size: number): number {
  if (used + size > pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolHex = undefined;
    used = 0;
  }
  used += size;
  return used - size;
}

/**
 * `size` fresh CSPRNG bytes, never handed out twice: for ids and nonces, which must be unpredictable
 * and unique but are not secret (the pool's bytes sit in memory until they are handed out). In a
 * server's request a draw of its own cost several times what it costs in a loop (the generator's
 * state is cold by then). The bytes are a view of the pool, which is never written again.
 */
export function pooledRandomBytes(size: number): Buffer {
  const start = take(size);
  return pool.subarray(start, start + size);
}

/**
 * `size` fresh CSPRNG bytes as hex, from the same pool and never handed out twice: a cut of the
 * pool's hex text, made once a pool, costs less than a view of the bytes and its conversion, made
 * for every id.
 */
export function pooledRandomHex(size: number): string {
  const start = take(size);
  poolHex ??= pool.toString('hex');
  return poolHex.slice(start * 2, (start + size) * 2);
}
