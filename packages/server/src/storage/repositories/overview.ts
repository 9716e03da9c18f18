import type { OverviewDelta, OverviewWrite } from '../../domain/overview.ts';
import type { Db } from '../db.ts';
import { isPostgres, portable, runStatement, runText } from '../statements.ts';
import type { Owner } from './owned.ts';

const COLUMNS = 'account_id, mode, day, metric, currency, shard, quantity, amount';
const KEY = '(account_id, mode, day, metric, currency, shard)';
const ADD = 'quantity = overview_daily.quantity + excluded.quantity, amount = overview_daily.amount + excluded.amount';

const ADD_ONE = portable(`insert into overview_daily (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict ${KEY} do update set ${ADD}`);

/**
 * PostgreSQL: the counters of a change as one more part of the change's own statement
 * (events.ts), its deltas as arrays from parameter `from` on; `source`, when given, names the
 * relation whose one row says the change wrote, so that a lost race adds nothing.
 */
export function overviewCte(from: number, source: string | null): string {
  const p = (i: number) => `$${from + i}`;
  return `insert into overview_daily (${COLUMNS})
    select ${p(0)}::text, ${p(1)}::text, ${p(2)}::integer, d.metric, d.currency, ${p(3)}::integer, d.quantity, d.amount
    from ${source ? `${source}, ` : ''}unnest(${p(4)}::text[], ${p(5)}::text[], ${p(6)}::bigint[], ${p(7)}::bigint[]) as d(metric, currency, quantity, amount)
    on conflict ${KEY} do update set ${ADD}`;
}

/** The parameters of overviewCte, in its order. Deltas come sorted so that concurrent writers lock rows in one order. */
export function overviewParams(write: OverviewWrite): unknown[] {
  const deltas = sorted(write.deltas);
  return [
    write.accountId,
    write.mode,
    write.day,
    write.shard,
    deltas.map((d) => d.metric),
    deltas.map((d) => d.currency),
    deltas.map((d) => d.quantity),
    deltas.map((d) => d.amount),
  ];
}

function sorted(deltas: readonly OverviewDelta[]): OverviewDelta[] {
  return [...deltas].sort((a, b) => (a.metric === b.metric ? a.currency.localeCompare(b.currency) : a.metric < b.metric ? -1 : 1));
}

/** Adds to the counters in the caller's transaction; statements cost no round trip on SQLite. */
export async function addOverview(db: Db, write: OverviewWrite): Promise<void> {
  if (write.deltas.length === 0) return;
  if (isPostgres(db)) {
    await runText(db, `with added as (${overviewCte(1, null)}) select 1`, overviewParams(write));
    return;
  }
  for (const d of sorted(write.deltas)) {
    await runStatement(db, ADD_ONE, [write.accountId, write.mode, write.day, d.metric, d.currency, write.shard, d.quantity, d.amount]);
  }
}

export type OverviewRow = { day: number; metric: string; currency: string; quantity: number; amount: number };

const READ_RANGE = portable(
  `select day, metric, currency, sum(quantity) as quantity, sum(amount) as amount from overview_daily
  where account_id = $1 and mode = $2 and day >= $3 and day <= $4
  group by day, metric, currency order by day, metric, currency`,
);

/** The counters of the owner's days `first`..`last` (UTC day numbers), summed over shards: a range of the primary key. */
export async function readOverview(db: Db, owner: Owner, first: number, last: number): Promise<OverviewRow[]> {
  const rows = await runStatement<Record<string, unknown>>(db, READ_RANGE, [owner.accountId, owner.mode, first, last]);
  return rows.map((row) => ({
    day: Number(row.day),
    metric: String(row.metric),
    currency: String(row.currency),
    quantity: Number(row.quantity),
    amount: Number(row.amount),
  }));
}
