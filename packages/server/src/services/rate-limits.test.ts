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

describe('the database request counter', () => {
  it('counts per key within a window, and starts again once the window has passed', async () => {
    let now = 1_000_000;
    const count = requestCounter(store, { now: () => now });
    expect((await count('a', 60_000)).current).toBe(1);
    now += 1_000;
    expect((await count('a', 60_000)).current).toBe(2);
    const third = await count('a', 60_000);
    expect(third).toEqual({ current: 3, ttl: 59_000 });
    expect((await count('b', 60_000)).current).toBe(1);
    now += 59_000;
    expect(await count('a', 60_000)).toEqual({ current: 1, ttl: 60_000 });
  });

  it('shares counts between counters, as between server processes', async () => {
    const clock = { now: () => 2_000_000 };
    const [first, second] = [requestCounter(store, clock), requestCounter(store, clock)];
    await Promise.all([first('shared', 60_000), second('shared', 60_000), first('shared', 60_000)]);
    expect((await second('shared', 60_000)).current).toBe(4);
  });
});
