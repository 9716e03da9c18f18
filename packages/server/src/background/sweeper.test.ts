import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { ServiceDeps } from '../services/context.ts';
import type { Store } from '../storage/db.ts';
import { asServiceUnavailable } from '../storage/unavailable.ts';
import type { BackgroundJob } from './jobs/job.ts';
import { startSweeper } from './sweeper.ts';

/** A store whose every transaction fails with `error`. */
function failingStore(error: unknown): { store: Store; attempts: () => number } {
  let attempts = 0;
  const store = {
    transaction: async () => {
      attempts += 1;
      throw error;
    },
  } as unknown as Store;
  return { store, attempts: () => attempts };
}

const JOBS: BackgroundJob[] = ['first', 'second', 'third', 'fourth'].map((name) => ({ name, run: async () => 0 }));

async function oneRound(store: Store): Promise<string[]> {
  const lines: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
  const sweeper = startSweeper({
    store,
    jobs: JOBS,
    periodMs: 60_000,
    runner: 'test',
    clock: { now: () => Date.now() },
    services: {} as ServiceDeps,
    logger,
  });
  // The first round starts at once, and against this store runs on promises alone: it has ended by
  // the time the microtasks have drained and an immediate runs. stop() then prevents the next.
  await new Promise((resolve) => setImmediate(resolve));
  await sweeper.stop();
  return lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
}

describe('the sweeper', () => {
  it('ends its round at the first job that finds the database unavailable, instead of waiting out the lock for each', async () => {
    // What the store throws when another process holds SQLite's lock past the busy timeout.
    const busy = asServiceUnavailable(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
    const { store, attempts } = failingStore(busy);
    expect(await oneRound(store)).toEqual(['background job failed: the database is unavailable; this and the remaining jobs run again next period']);
    expect(attempts()).toBe(1);
  });

  it('goes on to the next job when one fails for another reason', async () => {
    const { store, attempts } = failingStore(new Error('no such table: background_jobs'));
    expect(await oneRound(store)).toEqual(Array(JOBS.length).fill('background job failed; it runs again next period'));
    expect(attempts()).toBe(JOBS.length);
  });
});
