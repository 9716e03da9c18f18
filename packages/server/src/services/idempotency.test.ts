import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../storage/db.ts';
import { findIdempotencyKey, insertIdempotencyClaim } from '../storage/repositories/idempotency.ts';
import { type IdempotencyScope, REPLAY_WINDOW_MS, runMutation, STALE_CLAIM_MS } from './idempotency.ts';

let store: Store;
beforeAll(async () => {
  store = await openStore({ kind: 'sqlite', dataDir: mkdtempSync(join(tmpdir(), 'idempotency-')) });
});
afterAll(() => store?.close());

let keys = 0;
function scope(): IdempotencyScope {
  keys += 1;
  return { accountId: 'acct', mode: 'test', keyKind: 'secret', key: `key-${keys}`, requestHash: 'hash', responseKey: randomBytes(32) };
}

describe('claiming an Idempotency-Key', () => {
  it('replays within the window and runs the work again once the key is older than the window', async () => {
    let now = 10 * REPLAY_WINDOW_MS;
    const clock = { now: () => now };
    const key = scope();
    expect(await runMutation(store, clock, key, async () => 'first')).toEqual({ kind: 'done', value: 'first' });
    now += REPLAY_WINDOW_MS - 1;
    expect(await runMutation(store, clock, key, async () => 'second')).toEqual({ kind: 'replay', response: { status: 200, body: '"first"' } });
    now += 2;
    expect(await runMutation(store, clock, key, async () => 'third')).toEqual({ kind: 'done', value: 'third' });
  });

  it('answers 409 while a claim is in flight, and lets a retry take over a claim left stale by a crashed process', async () => {
    let now = 20 * REPLAY_WINDOW_MS;
    const clock = { now: () => now };
    const key = scope();
    // What a process that crashed mid-request leaves: a claim with no response.
    await store.write((db) => insertIdempotencyClaim(db, key, key.requestHash, now));
    now += STALE_CLAIM_MS - 1;
    await expect(runMutation(store, clock, key, async () => 'early')).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    now += 1;
    expect(await runMutation(store, clock, key, async () => 'retry')).toEqual({ kind: 'done', value: 'retry' });
  });

  it('lets the retry of a request that failed with a server fault run again', async () => {
    const clock = { now: () => 30 * REPLAY_WINDOW_MS };
    const key = scope();
    await expect(runMutation(store, clock, key, async () => Promise.reject(new Error('fault')))).rejects.toThrow('fault');
    expect(await runMutation(store, clock, key, async () => 'again')).toEqual({ kind: 'done', value: 'again' });
  });

  it('gives the key back once the database returns when the outage that failed the request also kept the claim from being given back', async () => {
    const clock = { now: () => 40 * REPLAY_WINDOW_MS };
    const key = scope();
    // The store as an outage shows it: the claim is written, then every write fails until it
    // returns; transactions never return, so only the claim's release by a single write can work.
    const outage = outageOf(store, { transactionsReturn: false });
    const flaky = outage.store;
    await expect(runMutation(flaky, clock, key, async () => 'lost')).rejects.toThrow('unavailable');
    expect(await store.read((db) => findIdempotencyKey(db, key))).toMatchObject({ state: 'in_flight' });
    outage.end();
    // With no request asking: what another instance, which cannot know of the claim, then finds.
    await expect.poll(() => store.read((db) => findIdempotencyKey(db, key)), { timeout: 5_000 }).toBeUndefined();
  });

  it('gives a claim it still owes back before the retry reaching this process claims the key: no 409 race', async () => {
    const clock = { now: () => 50 * REPLAY_WINDOW_MS };
    const key = scope();
    const outage = outageOf(store, { transactionsReturn: true });
    const flaky = outage.store;
    await expect(runMutation(flaky, clock, key, async () => 'lost')).rejects.toThrow('unavailable');
    await expect(runMutation(flaky, clock, key, async () => 'still down')).rejects.toThrow('unavailable');
    outage.end();
    // At once, before any background attempt could have run.
    expect(await runMutation(flaky, clock, key, async () => 'back')).toEqual({ kind: 'done', value: 'back' });
  });

  it('owes back a claim whose write the database committed but whose answer the outage cut: the retry is not held off', async () => {
    const clock = { now: () => 60 * REPLAY_WINDOW_MS };
    const key = scope();
    let cut = true;
    const lostAnswer: Store = {
      ...store,
      // The claim is committed, then the connection drops before its answer arrives.
      write: async (work) => {
        const result = await store.write(work);
        if (!cut) return result;
        cut = false;
        throw Object.assign(new Error('the database is unavailable'), { code: 'SERVICE_UNAVAILABLE', status: 503 });
      },
    };
    await expect(runMutation(lostAnswer, clock, key, async () => 'lost')).rejects.toThrow('unavailable');
    expect(await store.read((db) => findIdempotencyKey(db, key))).toMatchObject({ state: 'in_flight' });
    // The merchant's retry, at once: the claim nobody holds is given back first, not a 409.
    expect(await runMutation(lostAnswer, clock, key, async () => 'retried')).toEqual({ kind: 'done', value: 'retried' });
  });

  it('never gives back a claim it did not make: one another instance made after the failed write stays', async () => {
    let now = 70 * REPLAY_WINDOW_MS;
    const clock = { now: () => now };
    const key = scope();
    let down = true;
    const outage: Store = {
      ...store,
      write: (work) =>
        down ? Promise.reject(Object.assign(new Error('the database is unavailable'), { code: 'SERVICE_UNAVAILABLE', status: 503 })) : store.write(work),
    };
    await expect(runMutation(outage, clock, key, async () => 'lost')).rejects.toThrow('unavailable');
    down = false;
    // Another instance's retry claims the key first, a moment later.
    now += 5;
    await store.write((db) => insertIdempotencyClaim(db, key, key.requestHash, now));
    // A retry here gives back what this process owes (nothing of that claim's), then finds it in flight.
    await expect(runMutation(outage, clock, key, async () => 'twice')).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    expect(await store.read((db) => findIdempotencyKey(db, key))).toMatchObject({ state: 'in_flight', locked_at: now });
  });
});

/**
 * `store` through an outage: its first write (the claim) succeeds, every later one fails with 503
 * until end(); transactions fail too, and come back at end() only if `transactionsReturn`.
 */
function outageOf(store: Store, options: { transactionsReturn: boolean }): { store: Store; end(): void } {
  let down = true;
  let writes = 0;
  const unavailable = () => Object.assign(new Error('the database is unavailable'), { code: 'SERVICE_UNAVAILABLE', status: 503 });
  return {
    store: {
      ...store,
      write: (work) => (++writes > 1 && down ? Promise.reject(unavailable()) : store.write(work)),
      transaction: (work) => (down || !options.transactionsReturn ? Promise.reject(unavailable()) : store.transaction(work)),
    },
    end: () => {
      down = false;
    },
  };
}
