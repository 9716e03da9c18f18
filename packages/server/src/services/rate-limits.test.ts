import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../storage/db.ts';
import { requestCounter } from './rate-limits.ts';

let store: Store;
beforeAll(async () => {
  store = await openStore({ kind: 'sqlite', dataDir: mkdtempSync(join(tmpdir(), 'rate-limit-')) });
});
afterAll(() => store?.close());

describe('the shared request counter', () => {
  it('counts per key within a window, and starts again once the window has passed', async () => {
    let now = 1_000_000;
    const counter = requestCounter(store, { now: () => now });
    expect(counter.count('a', 60_000).current).toBe(1);
    now += 1_000;
    await counter.flush();
    expect(counter.count('a', 60_000).current).toBe(2);
    expect(counter.count('a', 60_000)).toEqual({ current: 3, ttl: 59_000 });
    expect(counter.count('b', 60_000).current).toBe(1);
    await counter.flush();
    now += 59_000;
    expect(counter.count('a', 60_000)).toEqual({ current: 1, ttl: 60_000 });
    await counter.flush();
    expect(counter.count('a', 60_000)).toEqual({ current: 2, ttl: 60_000 });
    await counter.close();
  });

  it('shares counts between counters, as between server processes, once each has flushed', async () => {
    const clock = { now: () => 2_000_000 };
    const [first, second] = [requestCounter(store, clock), requestCounter(store, clock)];
    first.count('shared', 60_000);
    first.count('shared', 60_000);
    expect(second.count('shared', 60_000).current).toBe(1);
    await first.flush();
    await second.flush();
    expect(second.count('shared', 60_000).current).toBe(4);
    await second.flush();
    // The first learns of the second's requests when it next adds its own (within one flush interval).
    expect(first.count('shared', 60_000).current).toBe(3);
    await first.flush();
    expect(first.count('shared', 60_000).current).toBe(6);
    await Promise.all([first.close(), second.close()]);
    const rows = await store.read((db) => db.selectFrom('rate_limits').select('count').where('key', '=', 'shared').execute());
    expect(rows).toEqual([{ count: 6 }]);
  });

  it('takes the shared window of a key another process started', async () => {
    let now = 3_000_000;
    const [first, second] = [requestCounter(store, { now: () => now }), requestCounter(store, { now: () => now })];
    first.count('window', 60_000);
    await first.flush();
    now += 10_000;
    second.count('window', 60_000);
    await second.flush();
    // The window is the first process's: it ends 60 s after its first request, not the second's.
    expect(second.count('window', 60_000)).toEqual({ current: 3, ttl: 50_000 });
    await Promise.all([first.close(), second.close()]);
  });
});
