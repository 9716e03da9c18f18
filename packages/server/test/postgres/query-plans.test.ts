/**
 * The plans PostgreSQL makes for the hot reads of a charge and a token on a fresh store, its
 * tables never analysed: the ones a deployment runs from its first request, and keeps in each
 * connection's prepared statements. Each must find its row by the primary key, as the generic plan
 * of a prepared statement and as a custom plan alike.
 */
import { type CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/storage/migrate.ts';
import { findChargeView, findChargeWithToken } from '../../src/storage/repositories/charges.ts';
import { eraseExpiredTokenSecrets } from '../../src/storage/repositories/sweeps.ts';
import { findToken, TOKEN_COLUMNS, takeToken } from '../../src/storage/repositories/tokens.ts';
import { claimDueDeliveries } from '../../src/storage/repositories/webhook-deliveries.ts';
import type { Database } from '../../src/storage/schema.ts';
import { tempDataDir } from '../harness.ts';
import { databaseUrlOf, withDatabase } from './support.ts';

const owner = { accountId: 'acct_plans', mode: 'test' } as const;

type Plans = { generic: string; custom: string };

/** Generic: what a prepared statement keeps once PostgreSQL settles on one plan for any parameters. */
async function plansOf(url: string, query: CompiledQuery): Promise<Plans> {
  return withDatabase(url, async (client) => {
    const text = (rows: Array<Record<string, string>>) => rows.map((row) => row['QUERY PLAN']).join('\n');
    const custom = text((await client.query(`explain ${query.sql}`, [...query.parameters])).rows);
    await client.query(`prepare hot as ${query.sql}`);
    await client.query('set plan_cache_mode = force_generic_plan');
    // EXECUTE takes its arguments as literals: a utility statement has no bind parameters.
    const args = query.parameters.map((value) => client.escapeLiteral(String(value))).join(', ');
    const generic = text((await client.query(`explain execute hot(${args})`)).rows);
    return { generic, custom };
  });
}

/** Every scan of charges and tokens goes through its primary key. */
function expectPrimaryKeyOnly(plan: string): void {
  const scans = plan.split('\n').filter((line) => /Scan\b.* on (charges|tokens)\b/.test(line));
  expect(scans.length, plan).toBeGreaterThan(0);
  for (const scan of scans) expect(scan, plan).toMatch(/Index (Only )?Scan using (charges|tokens)_pkey on (charges|tokens)\b/);
}

describe('hot reads on a fresh PostgreSQL store', () => {
  let url: string;
  let db: Kysely<Database>;
  const queries: CompiledQuery[] = [];

  beforeAll(async () => {
    url = await databaseUrlOf(tempDataDir());
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
      log: (event) => void (event.level === 'query' && queries.push(event.query)),
    });
    await migrate(db);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  async function statementOf(work: () => Promise<unknown>): Promise<CompiledQuery> {
    queries.length = 0;
    await work();
    expect(queries).toHaveLength(1);
    return queries[0] as CompiledQuery;
  }

  it('a charge read for a change, and one for a GET, find the charge and its token by their primary keys', async () => {
    for (const read of [findChargeWithToken, findChargeView]) {
      const plans = await plansOf(url, await statementOf(() => read(db, owner, 'ch_plans')));
      expectPrimaryKeyOnly(plans.generic);
      expectPrimaryKeyOnly(plans.custom);
    }
  });

  it('the token taken by a new charge, and a token read, use the primary key', async () => {
    for (const query of [await statementOf(() => takeToken(db, owner, 'tok_plans', 1)), await statementOf(() => findToken(db, owner, 'tok_plans'))]) {
      const plans = await plansOf(url, query);
      expectPrimaryKeyOnly(plans.generic);
      expectPrimaryKeyOnly(plans.custom);
    }
  });

  it('the webhook claim walks the pending deliveries by endpoint, never the whole backlog by time', async () => {
    queries.length = 0;
    const claim = { now: 1000, leaseUntil: 21_000, runner: 'runner-1', limit: 64, perEndpoint: 4, perAccount: 32 };
    await db.transaction().execute((tx) => claimDueDeliveries(tx, claim));
    const update = queries.find((query) => query.sql.includes('update webhook_deliveries'));
    if (!update) throw new Error('the claim ran no update');
    for (const plan of Object.values(await plansOf(url, update))) {
      // The walk's first row and every step: each an index scan cut at one row.
      const steps = plan.split('\n').filter((line) => /Scan\b.* on webhook_deliveries (x|y)\b/.test(line));
      expect(steps, plan).toHaveLength(2);
      for (const step of steps) expect(step, plan).toMatch(/Index (Only )?Scan using webhook_deliveries_endpoint_due on webhook_deliveries/);
      expect(plan).not.toMatch(/Seq Scan on webhook_deliveries|webhook_deliveries_due on/);
    }
  });

  it('the sweeper that erases expired cards reads the tokens whose card is still sealed, not every token never charged', async () => {
    // 20,000 tokens never charged and already erased (abandoned checkouts), and a few still sealed.
    await sql`insert into accounts (id, name, created_at) values (${owner.accountId}, 'plans', 0) on conflict do nothing`.execute(db);
    const values = TOKEN_COLUMNS.map((column) => {
      if (column === 'id') return `'tok_plans_' || g`;
      if (column === 'account_id') return `'${owner.accountId}'`;
      if (column === 'mode') return `'test'`;
      if (column === 'created_at') return 'g';
      if (column === 'card_secret') return `case when g > 19990 then 'sealed' else null end`;
      if (column === 'exp_month' || column === 'exp_year') return '1';
      if (column === 'used_at' || column.startsWith('address_')) return 'null';
      return `'x'`;
    });
    await sql
      .raw(`insert into tokens (${TOKEN_COLUMNS.map((column) => `"${column}"`).join(', ')}) select ${values.join(', ')} from generate_series(1, 20000) g`)
      .execute(db);
    await sql`analyze tokens`.execute(db);
    queries.length = 0;
    await eraseExpiredTokenSecrets(db, 1000, 900_000);
    const erase = queries.find((query) => query.sql.startsWith('update "tokens"'));
    if (!erase) throw new Error('the sweep ran no update of tokens');
    for (const plan of Object.values(await plansOf(url, erase))) {
      expect(plan).toMatch(/Index Scan using tokens_sealed_created_at on tokens/);
      expect(plan).toMatch(/Index Cond: \(created_at < /);
      expect(plan).not.toMatch(/Seq Scan on tokens|tokens_unused_created_at/);
    }
  });
});
