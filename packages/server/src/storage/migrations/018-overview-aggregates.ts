import { type Kysely, sql } from 'kysely';

/**
 * The home page's daily counters (docs/dashboard.md, "Home"): one row per account, mode, UTC day,
 * metric, currency and shard, added to in the transaction of each change of a charge, so the page
 * reads at most a few thousand rows whatever the number of charges. Existing charges are counted
 * once here, by the day each was created (their capture and 3-D Secure days were not kept);
 * refunds by their own day; declines before this migration were never stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('overview_daily')
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('day', 'integer', (col) => col.notNull())
    .addColumn('metric', 'text', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('shard', 'integer', (col) => col.notNull())
    .addColumn('quantity', 'bigint', (col) => col.notNull())
    .addColumn('amount', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('overview_daily_pk', ['account_id', 'mode', 'day', 'metric', 'currency', 'shard'])
    .execute();

  const day = (column: string) => sql.raw(`cast(${column} / 86400000 as integer)`);
  await sql`insert into overview_daily (account_id, mode, day, metric, currency, shard, quantity, amount)
    select account_id, mode, ${day('created_at')}, 'created', currency, 0, count(*), sum(amount)
    from charges group by account_id, mode, ${day('created_at')}, currency`.execute(db);
  await sql`insert into overview_daily (account_id, mode, day, metric, currency, shard, quantity, amount)
    select account_id, mode, ${day('created_at')}, 'captured', currency, 0, count(*), sum(amount_captured)
    from charges where amount_captured > 0 group by account_id, mode, ${day('created_at')}, currency`.execute(db);
  await sql`insert into overview_daily (account_id, mode, day, metric, currency, shard, quantity, amount)
    select account_id, mode, ${day('created_at')}, 'threeds:' || threeds_trans_status, currency, 0, count(*), sum(amount)
    from charges where threeds_trans_status is not null group by account_id, mode, ${day('created_at')}, threeds_trans_status, currency`.execute(db);
  await sql`insert into overview_daily (account_id, mode, day, metric, currency, shard, quantity, amount)
    select r.account_id, r.mode, ${day('r.created_at')}, 'refunded', r.currency, 0, count(*), sum(r.amount)
    from refunds r join charges c on c.id = r.charge_id where c.amount_captured > 0
    group by r.account_id, r.mode, ${day('r.created_at')}, r.currency`.execute(db);
}
