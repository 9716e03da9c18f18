import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../storage/db.ts';
import { openSqliteStore } from '../storage/sqlite.ts';
import { databaseRateLimitStore } from './rate-limit.ts';

let store: Store;
beforeAll(async () => {
  store = await openSqliteStore(mkdtempSync(join(tmpdir(), 'rate-limit-')));
});
afterAll(() => store?.close());

function incr(limiter: InstanceType<ReturnType<typeof databaseRateLimitStore>>, key: string, windowMs: number) {
  return new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    limiter.incr(key, (error, result) => (error || !result ? reject(error) : resolve(result)), windowMs),
  );
}

describe('the database rate-limit store', () => {
  it('counts per key within a window, and starts again once the window has passed', async () => {
    const limiter = new (databaseRateLimitStore(store.db))();
    expect((await incr(limiter, 'a', 60_000)).current).toBe(1);
    expect((await incr(limiter, 'a', 60_000)).current).toBe(2);
    const third = await incr(limiter, 'a', 60_000);
    expect(third.current).toBe(3);
    expect(third.ttl).toBeGreaterThan(0);
    expect(third.ttl).toBeLessThanOrEqual(60_000);
    expect((await incr(limiter, 'b', 60_000)).current).toBe(1);
    // A zero-length window has always passed: the count restarts.
    expect((await incr(limiter, 'a', 0)).current).toBe(1);
  });

  it('shares counts between store instances, as between server processes', async () => {
    const StoreClass = databaseRateLimitStore(store.db);
    const [first, second] = [new StoreClass(), new StoreClass()];
    await Promise.all([incr(first, 'shared', 60_000), incr(second, 'shared', 60_000), incr(first, 'shared', 60_000)]);
    expect((await incr(second, 'shared', 60_000)).current).toBe(4);
  });
});
