import { TEST_CARDS } from '@payframe/contract/test-cards';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client } from './client.ts';
import { everyRow, queryStore } from './database.ts';
import { cli, createKeys, startServer, storeArgs, TEST_POSTGRES_URL, type TestServer } from './harness.ts';

/** `payframe seed` fills an account in bulk; the lists then read it like any other. */

const COUNT = 2_000;

let server: TestServer;
let api: Client;
let seeded: { charges: number; refunds: number; events: number };

beforeAll(async () => {
  server = await startServer({ env: { PAYFRAME_SWEEP_INTERVAL_MS: '60000' } });
  const run = await cli(['seed', '--account', 'seeded', '--charges', String(COUNT), '--json', ...(await storeArgs(server.dataDir))]);
  expect(run.code, run.stderr).toBe(0);
  seeded = JSON.parse(run.stdout);
  api = client(server.url, (await createKeys(server.dataDir, 'seeded')).secretKey);
}, 120_000);
afterAll(() => server?.stop());

async function all(path: string): Promise<any[]> {
  const items: any[] = [];
  let after: string | undefined;
  for (;;) {
    const response = await api.get(`${path}${path.includes('?') ? '&' : '?'}limit=100${after ? `&starting_after=${after}` : ''}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    items.push(...response.body.data);
    if (!response.body.has_more) return items;
    after = response.body.data.at(-1).id;
  }
}

/** The seed cannot know the port of the server that reads the store later: 3-D Secure links compare by path. */
function withoutOrigin(charge: any) {
  const link = new URL(charge.threedSecure.redirect);
  return { ...charge, threedSecure: { ...charge.threedSecure, redirect: `${link.pathname}${link.search}` } };
}

describe('payframe seed', () => {
  it('writes the charges, their refunds and events, in a realistic mix', async () => {
    expect(seeded.charges).toBe(COUNT);
    const counts = await queryStore(
      server.dataDir,
      "select c.status, c.reason, count(*) as n from charges c join accounts a on a.id = c.account_id where a.name = 'seeded' group by c.status, c.reason",
    );
    const byStatus = Object.fromEntries(counts.map((row) => [`${row.status}/${row.reason ?? ''}`, Number(row.n)]));
    for (const kind of ['PENDING/', 'CHARGE_SUCCESS/', 'PARTIALLY_REFUNDED/', 'REFUNDED/', 'REFUNDED/EXPIRED', 'CHARGE_FAILED/CANCEL_USING_API']) {
      expect(byStatus[kind], kind).toBeGreaterThan(COUNT / 50);
    }
    expect(Object.values(byStatus).reduce((sum, n) => sum + n, 0)).toBe(COUNT);
    const [events] = await queryStore(server.dataDir, 'select count(*) as n from events');
    expect(Number(events!.n)).toBe(seeded.events);
    const [refunds] = await queryStore(server.dataDir, 'select count(*) as n from refunds');
    expect(Number(refunds!.n)).toBe(seeded.refunds);
  });

  it('lists every seeded charge once, newest first, and each filter agrees with the charges', async () => {
    const charges = await all('/v2/charges');
    expect(charges).toHaveLength(COUNT);
    expect(new Set(charges.map((charge) => charge.id)).size).toBe(COUNT);
    const created = charges.map((charge) => charge.created);
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    expect(new Set(charges.map((charge) => charge.currency)).size).toBeGreaterThan(2);

    for (const status of ['PENDING', 'CHARGE_SUCCESS', 'PARTIALLY_REFUNDED', 'REFUNDED', 'CHARGE_FAILED']) {
      const filtered = await all(`/v2/charges?status=${status}`);
      expect(
        filtered.map((charge) => charge.id),
        status,
      ).toEqual(charges.filter((charge) => charge.status === status).map((charge) => charge.id));
    }
    const sample = charges[123];
    const email = (await queryStore(server.dataDir, 'select email from charges where id = ?', [sample.id]))[0]!.email as string;
    const byEmail = await all(`/v2/charges?email=${encodeURIComponent(email.toUpperCase())}`);
    expect(byEmail.map((charge) => charge.id)).toContain(sample.id);
    expect(byEmail.length).toBe((await queryStore(server.dataDir, 'select id from charges where email = ?', [email])).length);
    const byLast4 = await all(`/v2/charges?last4=${sample.token.card.last4Digits}`);
    expect(byLast4.map((charge) => charge.id)).toEqual(
      charges.filter((charge) => charge.token.card.last4Digits === sample.token.card.last4Digits).map((charge) => charge.id),
    );
    const withReference = charges.find((charge) => charge.txn_reference !== null);
    expect((await all(`/v2/charges?txn_reference=${withReference.txn_reference}`)).map((charge) => charge.id)).toEqual([withReference.id]);
    const since = created[500];
    expect((await all(`/v2/charges?created[gte]=${since}`)).length).toBe(created.filter((time) => time >= since).length);

    const refunds = await all('/v2/refunds');
    expect(refunds).toHaveLength(seeded.refunds);
    const expired = await all('/v2/events?name=charge.expired');
    expect(expired.length).toBe(charges.filter((charge) => charge.reason === 'EXPIRED').length);
    const history = await all(`/v2/events?charge=${charges.find((charge) => charge.status === 'PARTIALLY_REFUNDED').id}`);
    expect(
      history
        .map((event) => event.name)
        .reverse()
        .filter((name) => !name.startsWith('charge.authentication')),
    ).toEqual(['charge.created', 'charge.captured', 'charge.refunded']);
  });

  it("records each charge's history as the server would: its last event shows the charge as it reads now, its refunds add up", async () => {
    const charges = await all('/v2/charges');
    const events = await all('/v2/events');
    expect(events).toHaveLength(seeded.events);
    const latest = new Map<string, any>();
    // Newest first: the first event seen for a charge is its latest.
    for (const event of events) if (!latest.has(event.data.object.id)) latest.set(event.data.object.id, event);
    expect(latest.size).toBe(COUNT);
    const expiredSinceSeeding = (charge: any) => charge.reason === 'EXPIRED' && latest.get(charge.id).name !== 'charge.expired';
    for (const charge of charges) {
      // A pending charge whose deadline passed after the seed reads as expired before the sweeper records it.
      if (expiredSinceSeeding(charge)) expect(charge.created).toBeLessThanOrEqual(Date.now() / 1000 - 7 * 86_400);
      else expect(withoutOrigin(latest.get(charge.id).data.object), charge.id).toEqual(withoutOrigin(charge));
    }

    const refunded = new Map<string, number>();
    for (const refund of await all('/v2/refunds')) refunded.set(refund.charge, (refunded.get(refund.charge) ?? 0) + refund.amount);
    for (const charge of charges) expect(refunded.get(charge.id) ?? 0, charge.id).toBe(charge.reason === 'EXPIRED' ? 0 : charge.amount_refunded);
  });

  it('stores no full card number: seeded tokens are used ones, their sealed card data erased', async () => {
    const numbers = Object.values(TEST_CARDS).map((card) => card.number);
    const leaks = (await everyRow(server.dataDir)).filter(({ row }) => numbers.some((number) => row.includes(number)));
    expect(leaks).toEqual([]);
    const [sealed] = await queryStore(server.dataDir, 'select count(*) as n from tokens where card_secret is not null or used_at is null');
    expect(Number(sealed!.n)).toBe(0);
  });

  it('leaves planner statistics for the lists, and on SQLite no STAT4 samples, with which SQLite recompiles every read of a charge by id', async () => {
    if (TEST_POSTGRES_URL) {
      const [analyzed] = await queryStore(server.dataDir, "select count(*) as n from pg_stats where tablename = 'charges'");
      expect(Number(analyzed!.n)).toBeGreaterThan(0);
      return;
    }
    const [counts] = await queryStore(server.dataDir, "select count(*) as n from sqlite_stat1 where tbl = 'charges'");
    expect(Number(counts!.n)).toBeGreaterThan(0);
    const [samples] = await queryStore(server.dataDir, 'select count(*) as n from sqlite_stat4');
    expect(Number(samples!.n)).toBe(0);
  });

  it('pages a created range both ways, from cursors inside it and outside it', async () => {
    const charges = await all('/v2/charges');
    const [gte, lt] = [charges[1500].created, charges[300].created];
    const inRange = charges.filter((charge) => charge.created >= gte && charge.created < lt).map((charge) => charge.id);
    const range = `/v2/charges?created[gte]=${gte}&created[lt]=${lt}`;
    expect((await all(range)).map((charge) => charge.id)).toEqual(inRange);

    const back: string[] = [];
    for (let before = inRange.at(-1); ; ) {
      const response = await api.get(`${range}&limit=100&ending_before=${before}`);
      back.unshift(...response.body.data.map((charge: any) => charge.id));
      if (!response.body.has_more) break;
      before = response.body.data[0].id;
    }
    expect([...back, inRange.at(-1)]).toEqual(inRange);

    const afterNewest = await api.get(`${range}&limit=100&starting_after=${charges[0].id}`);
    expect(afterNewest.body.data.map((charge: any) => charge.id)).toEqual(inRange.slice(0, 100));
    const beforeOldest = await api.get(`${range}&limit=100&ending_before=${charges.at(-1).id}`);
    expect(beforeOldest.body.data.map((charge: any) => charge.id)).toEqual(inRange.slice(-100));
  });

  it('seeds the same store again: ids of another seed never collide with the first', async () => {
    const run = await cli(['seed', '--account', 'seeded-again', '--charges', '50', '--json', ...(await storeArgs(server.dataDir))]);
    expect(run.code, run.stderr).toBe(0);
    const [again] = await queryStore(
      server.dataDir,
      "select count(*) as n from charges c join accounts a on a.id = c.account_id where a.name = 'seeded-again'",
    );
    expect(Number(again!.n)).toBe(50);
    const [first] = await queryStore(server.dataDir, "select count(*) as n from charges c join accounts a on a.id = c.account_id where a.name = 'seeded'");
    expect(Number(first!.n)).toBe(COUNT);
  });

  it('refuses a missing account or a bad count', async () => {
    const store = await storeArgs(server.dataDir);
    expect((await cli(['seed', '--charges', '5', ...store])).code).toBe(2);
    const bad = await cli(['seed', '--account', 'seeded', '--charges', 'many', ...store]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--charges');
  });
});
