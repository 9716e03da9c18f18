import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type Client, chargeParams, client, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, startServer, storeArgs, TEST_POSTGRES_URL, type TestServer } from './harness.ts';

/**
 * Crash safety: the server is killed (SIGKILL, no chance to clean up) while workers run
 * token → charge → capture → partial refunds over real HTTP. After a restart on the same data,
 * everything the server acknowledged with a 200 is there exactly as acknowledged, the one request
 * each worker had in flight either happened whole or not at all, and no charge is half-written.
 * On SQLite this is the group commit's promise: no response before its batch is committed.
 */

const WORKERS = 6;
/** Kill once this many captures and refunds have been acknowledged: the kill lands mid-stream. */
const ACKNOWLEDGED_BEFORE_KILL = 40;

type Tracked = {
  id: string;
  amount: number;
  captured: { fees: number } | null;
  refunds: Array<Record<string, unknown>>;
  /** The request sent on this charge whose answer never came. */
  unanswered: { op: 'capture' } | { op: 'refund'; amount: number } | null;
};

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
});

/** Rows of the store, whichever backend this vitest project runs on. */
async function query<T>(dataDir: string, sql: string): Promise<T[]> {
  if (!TEST_POSTGRES_URL) {
    const sqlite = new SqliteDatabase(join(dataDir, 'payframe.sqlite3'), { readonly: true });
    try {
      return sqlite.prepare(sql).all() as T[];
    } finally {
      sqlite.close();
    }
  }
  const args = await storeArgs(dataDir);
  const database = new pg.Client({ connectionString: args[args.indexOf('--database-url') + 1] });
  await database.connect();
  try {
    return (await database.query(sql)).rows as T[];
  } finally {
    await database.end();
  }
}

/** One worker: flows one after another until a request gets no answer (the process is gone). */
async function worker(api: Client, index: number, charges: Tracked[], acknowledged: { count: number }, onEnough: () => void): Promise<void> {
  for (let flow = 0; ; flow++) {
    const token = await api.post('/v2/tokens', tokenParams(TEST_PANS.visa)).catch(() => null);
    if (!token) return;
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    const amount = 1000 + ((index * 7919 + flow * 104_729) % 9000);
    const created = await api
      .post('/v2/charges', chargeParams(token.body.id, { amount: String(amount), txn_reference: `w${index}-${flow}` }))
      .catch(() => null);
    if (!created) return;
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const charge: Tracked = { id: created.body.id, amount, captured: null, refunds: [], unanswered: null };
    charges.push(charge);

    charge.unanswered = { op: 'capture' };
    const captured = await api.post(`/v2/charges/capture/${charge.id}`).catch(() => null);
    if (!captured) return;
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    charge.captured = { fees: captured.body.fees };
    charge.unanswered = null;
    if (++acknowledged.count >= ACKNOWLEDGED_BEFORE_KILL) onEnough();

    // Up to three partial refunds, the last one possibly refunding everything that remains.
    let remaining = amount;
    for (const share of [0.25, 0.5, 1]) {
      const refundAmount = Math.max(1, Math.floor(remaining * share));
      charge.unanswered = { op: 'refund', amount: refundAmount };
      const refund = await api.post(`/v2/charges/refund/${charge.id}`, { amount: String(refundAmount) }).catch(() => null);
      if (!refund) return;
      expect(refund.status, JSON.stringify(refund.body)).toBe(200);
      charge.refunds.push(refund.body);
      charge.unanswered = null;
      remaining -= refundAmount;
      if (++acknowledged.count >= ACKNOWLEDGED_BEFORE_KILL) onEnough();
    }
  }
}

describe('SIGKILL under load', () => {
  it('loses nothing acknowledged and leaves no charge half-written', async () => {
    const server = await startServer();
    servers.push(server);
    const { secretKey } = await createKeys(server.dataDir, 'crash');
    const api = client(server.url, secretKey);

    const charges: Tracked[] = [];
    const acknowledged = { count: 0 };
    let killed: Promise<unknown> | undefined;
    const kill = () => (killed ??= server.stop('SIGKILL'));
    await Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(api, index, charges, acknowledged, kill)));
    expect(await killed).toEqual({ code: null, signal: 'SIGKILL' });
    expect(acknowledged.count).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);
    // The kill interrupted requests: at least one worker was waiting for an answer on a charge.
    expect(charges.filter((charge) => charge.unanswered).length).toBeGreaterThan(0);

    const again = await startServer({ dataDir: server.dataDir });
    servers.push(again);
    const after = client(again.url, secretKey);

    for (const charge of charges) {
      const read = await after.get(`/v2/charges/${charge.id}`);
      expect(read.status, charge.id).toBe(200);
      const stored = read.body;
      const acknowledgedRefunds = charge.refunds.reduce((sum, refund) => sum + (refund.amount as number), 0);

      // Each acknowledged refund, exactly as it was answered.
      for (const refund of charge.refunds) expect((await after.get(`/v2/charges/refund/${refund.id}`)).body).toEqual(refund);

      if (charge.captured) expect(stored.fees, charge.id).toBe(charge.captured.fees);
      const unanswered = charge.unanswered;
      if (unanswered?.op === 'capture') {
        // All or nothing: still pending without fees, or captured with them.
        expect([stored.status, stored.fees === null], charge.id).toEqual(stored.status === 'PENDING' ? ['PENDING', true] : ['CHARGE_SUCCESS', false]);
        continue;
      }
      expect(charge.captured, charge.id).not.toBeNull();
      const possible = unanswered?.op === 'refund' ? [acknowledgedRefunds, acknowledgedRefunds + unanswered.amount] : [acknowledgedRefunds];
      expect(possible, `${charge.id} amount_refunded`).toContain(stored.amount_refunded);
      const status = stored.amount_refunded === 0 ? 'CHARGE_SUCCESS' : stored.amount_refunded === charge.amount ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
      expect(stored.status, charge.id).toBe(status);
    }

    // Every charge in the store, acknowledged or not: refunds add up, captured ones carry fees, and
    // no token was spent without its charge (both are written in one transaction).
    const rows = await query<{ id: string; amount: number; amount_refunded: number; status: string; fees: number | null; refunded: number }>(
      again.dataDir,
      `select c.id, c.amount, c.amount_refunded, c.status, c.fees, coalesce(sum(r.amount), 0) as refunded
         from charges c left join refunds r on r.charge_id = c.id group by c.id, c.amount, c.amount_refunded, c.status, c.fees`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(charges.length);
    for (const row of rows) {
      expect(Number(row.amount_refunded), row.id).toBe(Number(row.refunded));
      if (row.status !== 'PENDING') expect(row.fees, row.id).not.toBeNull();
      else expect(row.fees, row.id).toBeNull();
    }
    const orphans = await query<{ id: string }>(
      again.dataDir,
      'select t.id from tokens t where t.used_at is not null and not exists (select 1 from charges c where c.token_id = t.id)',
    );
    expect(orphans).toEqual([]);

    // And the restarted server works.
    const token = await after.post('/v2/tokens', tokenParams(TEST_PANS.visa));
    const charge = await after.post('/v2/charges', chargeParams(token.body.id));
    expect((await after.post(`/v2/charges/capture/${charge.body.id}`)).body).toMatchObject({ status: 'CHARGE_SUCCESS', fees: 33 });
  });
});
