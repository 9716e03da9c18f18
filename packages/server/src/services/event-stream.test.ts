import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../storage/db.ts';
import { eventStreams, type StreamedEvent } from './event-stream.ts';

/** The streams of an instance share one poll (docs/stream.md): counted on a real store. */

let store: Store;
let transactions = 0;
let seq = 0;

beforeAll(async () => {
  const opened = await openStore({ kind: 'sqlite', dataDir: mkdtempSync(join(tmpdir(), 'event-streams-')) });
  store = {
    ...opened,
    transaction: (work) => {
      transactions += 1;
      return opened.transaction(work);
    },
  };
});
afterAll(() => store?.close());

async function addEvent(accountId: string): Promise<string> {
  const id = `evt_shared_poll_${++seq}`;
  await store.write((db) =>
    db
      .insertInto('events')
      .values({ id, account_id: accountId, mode: 'test', name: 'charge.created', charge_id: 'C1', created_at: Date.now(), body: `{"id":"${id}"}` })
      .execute(),
  );
  return id;
}

function until(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (!check()) return;
      clearInterval(timer);
      resolve();
    }, 20);
  });
}

describe('event streams on one instance', () => {
  it('poll the database once for all their streams, however many are open, and give each stream each event once', async () => {
    const streams = eventStreams(store, (error) => {
      throw error;
    });
    const received: StreamedEvent[][] = [];
    const subscriptions = [];
    for (let n = 0; n < 10; n++) {
      const events: StreamedEvent[] = [];
      received.push(events);
      subscriptions.push(await streams.open({ accountId: n < 5 ? 'acct_a' : 'acct_b', mode: 'test' }, undefined, (batch) => events.push(...batch)));
    }
    const [a, b] = [await addEvent('acct_a'), await addEvent('acct_b')];
    await until(() => received.every((events) => events.length === 1));
    expect(received.map((events) => events.map((event) => event.id))).toEqual([...Array(5).fill([a]), ...Array(5).fill([b])]);

    // Polls every 300 ms: in 1.5 s, about 5 transactions for all 10 streams, not 5 for each.
    const before = transactions;
    const started = performance.now();
    await until(() => performance.now() - started >= 1_500);
    expect(transactions - before).toBeGreaterThanOrEqual(1);
    expect(transactions - before).toBeLessThanOrEqual(8);

    for (const subscription of subscriptions) subscription.close();
    const idle = transactions;
    await until(() => performance.now() - started >= 2_500);
    expect(transactions).toBeLessThanOrEqual(idle + 1);
    streams.stop();
  });
});
