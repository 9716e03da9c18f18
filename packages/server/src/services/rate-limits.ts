import type { Clock } from '../domain/clock.ts';
import { addRequests, deleteWindowsBefore } from '../storage/repositories/rate-limits.ts';
import type { Store } from './context.ts';
import { repeatingTask } from './repeating-task.ts';

/** How often an instance adds its new counts to the shared ones and reads the totals back. */
export const FLUSH_EVERY_MS = 250;
/** Windows older than this are deleted now and then, so the table stays the size of the live traffic. */
const STALE_AFTER_MS = 60 * 60_000;
const CLEANUP_EVERY_FLUSHES = 240;

export type RequestCount = { current: number; ttl: number };

export type RequestCounter = {
  /** Counts one request against `key`: its count in the window and the milliseconds the window has left. */
  count(key: string, windowMs: number): RequestCount;
  /** Adds the counts made here since the last flush to the shared ones, and reads the totals back. */
  flush(): Promise<void>;
  /** Stops the timer after a last flush. */
  close(): Promise<void>;
};

/** One key's window as this instance knows it: the shared total at the last flush, plus what it counted since. */
type Window = { windowMs: number; windowStart: number; shared: number; pending: number };

/**
 * Fixed-window request counts shared by every instance through the database, without a write per
 * request: each instance counts in memory and, every FLUSH_EVERY_MS, adds its new counts to the
 * shared row and reads the total back. One instance alone counts exactly; across instances each
 * learns of the others' requests at its next flush, so a limit can be overshot by what the other
 * instances accept in about one flush interval (docs/operations.md, "Many instances").
 */
export function requestCounter(store: Store, clock: Clock): RequestCounter {
  const windows = new Map<string, Window>();
  let flushes = 0;
  // Flushes run one after another: a flush asked for during another waits for it.
  let tail: Promise<void> = Promise.resolve();

  const flushOnce = async () => {
    const now = clock.now();
    for (const [key, window] of windows) {
      if (window.pending === 0) {
        if (window.windowStart + window.windowMs <= now) windows.delete(key);
        continue;
      }
      const delta = window.pending;
      const total = await store.read((db) => addRequests(db, key, delta, window.windowStart, now, window.windowMs));
      // A window that passed (and was replaced) meanwhile is no longer in the map: nothing to update.
      window.pending -= delta;
      window.windowStart = total.windowStart;
      window.shared = total.count;
    }
    if (++flushes % CLEANUP_EVERY_FLUSHES === 0) await store.read((db) => deleteWindowsBefore(db, now - STALE_AFTER_MS));
  };
  const flush = () => {
    const run = tail.then(flushOnce);
    tail = run.catch(() => undefined);
    return run;
  };
  // A failed flush keeps its counts pending for the next one; requests go on being counted here.
  const flusher = repeatingTask(FLUSH_EVERY_MS, flush);

  return {
    count(key, windowMs) {
      const now = clock.now();
      let window = windows.get(key);
      if (!window || window.windowStart + window.windowMs <= now) {
        window = { windowMs, windowStart: now, shared: 0, pending: 0 };
        windows.set(key, window);
      }
      window.pending += 1;
      return { current: window.shared + window.pending, ttl: window.windowStart + windowMs - now };
    },
    flush,
    async close() {
      flusher.stop();
      await flush().catch(() => undefined);
    },
  };
}
