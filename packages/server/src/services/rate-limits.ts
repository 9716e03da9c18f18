import type { Clock } from '../domain/clock.ts';
import { countRequest, deleteWindowsBefore } from '../storage/repositories/rate-limits.ts';
import type { Store } from './context.ts';

/** Windows older than this are deleted now and then, so the table stays the size of the live traffic. */
const STALE_AFTER_MS = 60 * 60_000;
const CLEANUP_EVERY = 1_000;

export type RequestCount = { current: number; ttl: number };
export type RequestCounter = (key: string, windowMs: number) => Promise<RequestCount>;

/**
 * Fixed-window request counts in the database, so that every instance behind a load balancer
 * shares them. `count` answers the key's count in its window and the milliseconds the window has left.
 */
export function requestCounter(store: Store, clock: Clock): RequestCounter {
  let calls = 0;
  return async function count(key: string, windowMs: number): Promise<RequestCount> {
    const now = clock.now();
    const { count, windowStart } = await store.read((db) => countRequest(db, key, now, windowMs));
    if (++calls % CLEANUP_EVERY === 0) await store.read((db) => deleteWindowsBefore(db, now - STALE_AFTER_MS));
    return { current: count, ttl: windowStart + windowMs - now };
  };
}
