import { describe, expect, it } from 'vitest';
import type { Store } from '../src/services/context.ts';
import { type Attempt, claimAttempts, type FinishedAttempt, outcomeOf, recordAttempts } from '../src/services/webhook-attempts.ts';
import type { WebhookTarget } from '../src/services/webhook-targets-cache.ts';
import { tempDataDir, withStoreOf } from './harness.ts';

/**
 * Lease fencing, through the worker's own claim and record on the real store (SQLite, and
 * PostgreSQL in the server-postgres project): a pass records every outcome of its attempts at
 * once, and each reaches its delivery only while that delivery is still its attempt's lease.
 */

const T = 1_900_000_000_000;
const LEASE_MS = 20_000;
const ENDPOINT = 'we_lease_test_endpoint';
const targets = new Map<string, WebhookTarget>([[ENDPOINT, { url: 'http://127.0.0.1:9/webhooks', mode: 'test', secret: null }]]);
const targetsOf = async () => targets;

async function queue(store: Store, id: string, dueAt: number): Promise<void> {
  const event = `evt_${id}`;
  await store.transaction(async (tx) => {
    // The claim takes deliveries endpoint by endpoint: the endpoint's row must exist, as the API makes it.
    await tx
      .insertInto('webhook_endpoints')
      .values({
        id: ENDPOINT,
        account_id: 'acct_leases',
        mode: 'test',
        url: 'http://127.0.0.1:9/webhooks',
        events: '[]',
        description: null,
        secret_sealed: 'unused',
        created_at: dueAt,
        deleted_at: null,
        disabled_at: null,
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
    await tx
      .insertInto('events')
      .values({
        id: event,
        account_id: 'acct_leases',
        mode: 'test',
        name: 'charge.created',
        charge_id: 'ch_leases',
        created_at: dueAt,
        body: `{"id":"${event}"}`,
      })
      .execute();
    await tx
      .insertInto('webhook_deliveries')
      .values({
        id,
        account_id: 'acct_leases',
        mode: 'test',
        endpoint_id: ENDPOINT,
        event_id: event,
        status: 'pending',
        attempts: 0,
        last_status_code: null,
        last_error: null,
        next_attempt_at: dueAt,
        lease_until: null,
        leased_by: null,
        created_at: dueAt,
      })
      .execute();
  });
}

function claim(store: Store, runner: string, now: number): Promise<Attempt[]> {
  return store.transaction((tx) => claimAttempts(tx, { now, leaseMs: LEASE_MS, runner, limit: 10, perEndpoint: 4, perAccount: 32 }, targetsOf));
}

function answered(attempt: Attempt, statusCode: number, finishedAt: number): FinishedAttempt {
  const result = { statusCode, error: null, finishedAt, stopped: false };
  return { attempt, result, outcome: outcomeOf(attempt, result, [60], () => 0.5) };
}

describe('webhook leases', () => {
  it('records a pass’s outcomes together, each only where its lease still holds', async () => {
    await withStoreOf(tempDataDir(), async (store) => {
      await queue(store, 'whd_stalled', T);
      await queue(store, 'whd_on_time', T + 5_000);
      const [stalled] = await claim(store, 'runner-a', T);
      const [onTime] = await claim(store, 'runner-a', T + 5_000);
      // runner-a stalls past the first lease: runner-b takes that delivery for its second attempt.
      const [retaken] = await claim(store, 'runner-b', T + LEASE_MS + 1_000);
      expect([stalled?.deliveryId, onTime?.deliveryId, retaken?.deliveryId]).toEqual(['whd_stalled', 'whd_on_time', 'whd_stalled']);
      expect(retaken?.attempt).toBe(2);

      await store.transaction((tx) => recordAttempts(tx, 'runner-a', [answered(stalled!, 200, T + LEASE_MS + 2_000), answered(onTime!, 500, T + 6_000)]));

      const deliveries = await store.read((db) =>
        db
          .selectFrom('webhook_deliveries')
          .select(['id', 'status', 'attempts', 'last_status_code', 'last_error', 'next_attempt_at', 'leased_by'])
          .orderBy('id')
          .execute(),
      );
      expect(deliveries).toEqual([
        { id: 'whd_on_time', status: 'pending', attempts: 1, last_status_code: 500, last_error: 'HTTP 500', next_attempt_at: T + 66_000, leased_by: null },
        {
          id: 'whd_stalled',
          status: 'pending',
          attempts: 2,
          last_status_code: null,
          last_error: null,
          next_attempt_at: T + 2 * LEASE_MS + 1_000,
          leased_by: 'runner-b',
        },
      ]);
      // Every attempt keeps its own row: the stalled one's outcome too, and the one still running shows none yet.
      const attempts = await store.read((db) =>
        db
          .selectFrom('webhook_attempts')
          .select(['delivery_id', 'attempt', 'status_code', 'error', 'duration_ms'])
          .orderBy('delivery_id')
          .orderBy('attempt')
          .execute(),
      );
      expect(attempts).toEqual([
        { delivery_id: 'whd_on_time', attempt: 1, status_code: 500, error: 'HTTP 500', duration_ms: 1_000 },
        { delivery_id: 'whd_stalled', attempt: 1, status_code: 200, error: null, duration_ms: LEASE_MS + 2_000 },
        { delivery_id: 'whd_stalled', attempt: 2, status_code: null, error: 'no outcome: the instance making this attempt stopped', duration_ms: 0 },
      ]);

      await store.transaction((tx) => recordAttempts(tx, 'runner-b', [answered(retaken!, 204, T + LEASE_MS + 3_000)]));
      const settled = await store.read((db) =>
        db
          .selectFrom('webhook_deliveries')
          .select(['status', 'attempts', 'last_status_code', 'next_attempt_at', 'leased_by'])
          .where('id', '=', 'whd_stalled')
          .executeTakeFirst(),
      );
      expect(settled).toEqual({ status: 'succeeded', attempts: 2, last_status_code: 204, next_attempt_at: null, leased_by: null });
    });
  });
});
