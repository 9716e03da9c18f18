import { type Charge, ChargeSchema } from '@payframe/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeSearchMatches } from '../src/services/dashboard-charge-search.ts';
import { plansOf } from '../src/storage/migrations/query-plans.ts';
import { listChargeRowsMatchingAny } from '../src/storage/repositories/lists.ts';
import { type Client, chargeParams, createCharge, createToken, expectResource, TEST_PANS, tokenParams } from './client.ts';
import { type DashboardClient, dashboardFixture } from './dashboard-support.ts';
import type { InProcessTestServer } from './harness.ts';

let server: InProcessTestServer;
let api: Client;
let admin: DashboardClient;

beforeAll(async () => {
  ({ server, api, admin } = await dashboardFixture('shop'));
});
afterAll(() => server?.stop());

/** A charge on `number` whose shopper has `email`, with `txn_reference` when given. */
async function chargeOf(number: string, email: string, txnReference?: string): Promise<Charge> {
  const shopper = { ...(tokenParams(number).shopper as object), email };
  const token = await createToken(api, number, { shopper });
  const params = chargeParams(token.id, txnReference === undefined ? {} : { txn_reference: txnReference });
  return expectResource(await api.post('/v2/charges', params), ChargeSchema);
}

async function search(q: string, extra = ''): Promise<string[]> {
  const answer = await admin.get(`/charges?mode=test&limit=25&q=${encodeURIComponent(q)}${extra}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.map((charge: Charge) => charge.id);
}

describe('the dashboard’s charge search (q)', () => {
  it('finds a charge by its id, as a list of one', async () => {
    await createCharge(api, TEST_PANS.visa);
    const wanted = await createCharge(api, TEST_PANS.visa);
    await createCharge(api, TEST_PANS.visa);
    expect(await search(wanted.id)).toEqual([wanted.id]);
    expect(await search(wanted.id, '&status=REFUNDED')).toEqual([]);
    expect(await search(`${wanted.id}9`)).toEqual([]);
    const live = await admin.get(`/charges?mode=live&q=${wanted.id}`);
    expect(live.body.data).toEqual([]);
  });

  it('finds a txn_reference that looks like a charge id or a last 4', async () => {
    const idLike = await chargeOf(TEST_PANS.visa, 'ada@example.com', 'C20261123');
    const digits = await chargeOf(TEST_PANS.visa, 'ada@example.com', '5454');
    const card = await chargeOf(TEST_PANS.mastercardDebit, 'ada@example.com');
    expect(await search('C20261123')).toEqual([idLike.id]);
    // 5454 is both a reference and the last 4 of the Mastercard debit card: each is found.
    expect(await search('5454')).toEqual([card.id, digits.id]);
  });

  it('finds a shopper’s e-mail case-insensitively, and a reference exactly as written', async () => {
    const byEmail = await chargeOf(TEST_PANS.visa, 'Grace.Hopper@Example.com');
    const byReference = await chargeOf(TEST_PANS.visa, 'ada@example.com', 'grace.hopper@EXAMPLE.com');
    expect(await search('GRACE.HOPPER@example.COM')).toEqual([byEmail.id]);
    expect(await search('grace.hopper@EXAMPLE.com')).toEqual([byReference.id, byEmail.id]);
    expect(await search('Grace.Hopper')).toEqual([]);
  });

  it('pages through the matches of every field, each charge once, with the status filter', async () => {
    const shared = 'pages@shop.test';
    const made: Charge[] = [];
    for (let index = 0; index < 7; index++) {
      // By e-mail, by reference, or by both at once.
      const email = index % 3 === 1 ? 'other@shop.test' : shared;
      const reference = index % 3 === 0 ? undefined : shared;
      made.push(await chargeOf(TEST_PANS.visa, email, reference));
    }
    const newestFirst = made.map((charge) => charge.id).reverse();
    const seen: string[] = [];
    let page = await admin.get(`/charges?mode=test&limit=3&q=${shared}`);
    seen.push(...page.body.data.map((charge: Charge) => charge.id));
    while (page.body.has_more) {
      page = await admin.get(`/charges?mode=test&limit=3&q=${shared}&starting_after=${seen.at(-1)}`);
      seen.push(...page.body.data.map((charge: Charge) => charge.id));
    }
    expect(seen).toEqual(newestFirst);
    const back = await admin.get(`/charges?mode=test&limit=3&q=${shared}&ending_before=${newestFirst[5]}`);
    expect(back.body.data.map((charge: Charge) => charge.id)).toEqual(newestFirst.slice(2, 5));
    expect(back.body.has_more).toBe(true);

    const cancelled = made[4]!.id;
    expect((await admin.post(`/charges/${cancelled}/cancel?mode=test`)).status).toBe(200);
    expect(await search(shared, '&status=CHARGE_FAILED')).toEqual([cancelled]);
  });

  it('refuses an empty or an overlong search as the txn_reference filter does', async () => {
    for (const q of ['', 'x'.repeat(256)]) {
      const answer = await admin.get(`/charges?mode=test&q=${q}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'PARAMETER_INVALID', parameter: 'q' });
    }
  });

  it('reads each field through its own index on SQLite, never the whole table', async () => {
    const owner = { accountId: 'acct_1', mode: 'test' as const };
    const plans = await plansOf(async (db) => {
      const older = { cursor: { direction: 'older' as const, createdAt: 5, tie: 'C1' }, fetch: 26 };
      await listChargeRowsMatchingAny(db, owner, {}, chargeSearchMatches('Ada@Example.com'), { cursor: null, fetch: 26 }, 1000);
      await listChargeRowsMatchingAny(db, owner, { status: 'CHARGE_SUCCESS' }, chargeSearchMatches('4242'), older, 1000);
    });
    expect(plans).toEqual([
      'SEARCH charges USING INDEX sqlite_autoindex_charges_1 (id=?)',
      'SEARCH charges USING INDEX charges_by_txn_reference (account_id=? AND mode=? AND txn_reference=?)',
      'SEARCH charges USING INDEX charges_by_email (account_id=? AND mode=? AND email=?)',
      'SEARCH charges USING INDEX sqlite_autoindex_charges_1 (id=?)',
      'SEARCH charges USING INDEX charges_by_txn_reference (account_id=? AND mode=? AND txn_reference=? AND created_at<?)',
      'SEARCH charges USING INDEX charges_by_last4 (account_id=? AND mode=? AND last4=? AND created_at<?)',
    ]);
  });
});
