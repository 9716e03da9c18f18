import type { Db } from '../db.ts';
import type { DeliveryStatus, WebhookDeliveriesTable } from '../schema.ts';
import { serializeOn } from '../serialize.ts';
import { isPostgres, portable, prepared, runStatement, runText } from '../statements.ts';
import type { Owner } from './owned.ts';
import { fanOutPostgres, fanOutSqlite } from './webhook-fan-out.ts';

const RESEND = {
  postgres: prepared(`with e as (select id, account_id, mode, name from events where id = $2)
    ${fanOutPostgres('e', '$1::bigint', ' and ($3::text is null or w.id = $3::text)')} returning *`),
  sqlite: `${fanOutSqlite(' and (? is null or w.id = ?)')} returning *`,
};

/**
 * Queues the event again, due `now`, to each endpoint that takes it (the rule of
 * webhook-fan-out.ts), or only to `endpointId` if it does; the worker picks up `pending` rows whose
 * `next_attempt_at` has come. Answers the rows queued.
 */
export async function queueResend(db: Db, eventId: string, endpointId: string | null, now: number): Promise<WebhookDeliveriesTable[]> {
  if (isPostgres(db)) return runText<WebhookDeliveriesTable>(db, RESEND.postgres, [now, eventId, endpointId]);
  return runText<WebhookDeliveriesTable>(db, RESEND.sqlite, [now, now, now, eventId, endpointId, endpointId]);
}

const ANY_DUE = portable(`select 1 as due from webhook_deliveries where status = 'pending' and next_attempt_at <= $1 limit 1`);

/** The worker's poll: one probe of the due index, whose `status = 'pending'` must be a literal to be chosen. */
export async function anyDeliveryDue(db: Db, now: number): Promise<boolean> {
  return (await runStatement(db, ANY_DUE, [now])).length > 0;
}

/** A claimed delivery, with its event's body to send (null only if the event is gone). */
export type ClaimedDelivery = Pick<WebhookDeliveriesTable, 'id' | 'endpoint_id' | 'event_id' | 'attempts'> & { body: string | null };

/**
 * What one claim may take. A lease that has not ended is an attempt in flight, on any instance.
 * `perEndpoint` and `perAccount` bound those in flight, so that receivers that hang hold a bounded
 * share of every sender; within `limit`, due rows are taken round-robin across accounts (each
 * account's oldest first), so a backlog of one account does not queue another's first attempt.
 */
export type ClaimLimits = { limit: number; perEndpoint: number; perAccount: number };

/**
 * Leased rows are found on their own small index (migration 016). Claims are serialized
 * (serialize.ts), so the counts of leases in flight hold while the claim runs; the outer conditions
 * guard the rows all the same. `due` is the dialect's: each endpoint's oldest due rows, ranked; `walk`
 * is a CTE it may read from.
 */
const claimDue = (due: string, walk = '') => `with${walk ? ' recursive' : ''} leased as materialized (
    select endpoint_id, account_id from webhook_deliveries where lease_until is not null and lease_until > $1 and status = 'pending'
  ), busy_endpoints as (
    select endpoint_id, count(*) as n from leased group by endpoint_id
  ), busy_accounts as (
    select account_id, count(*) as n from leased group by account_id
  ),${walk ? ` walk as (${walk}),` : ''} due as (
    ${due}
  ), fair as (
    select due.id, due.next_attempt_at, coalesce(busy_accounts.n, 0) as account_busy,
      row_number() over (partition by due.account_id order by due.next_attempt_at, due.id) as account_rank
    from due
    left join busy_endpoints on busy_endpoints.endpoint_id = due.endpoint_id
    left join busy_accounts on busy_accounts.account_id = due.account_id
    where due.endpoint_rank + coalesce(busy_endpoints.n, 0) <= $3
  )
  update webhook_deliveries set attempts = attempts + 1, lease_until = $4, leased_by = $5, next_attempt_at = $6
  where id in (select id from fair where account_rank + account_busy <= $7 order by account_rank, next_attempt_at, id limit $8)
  and status = 'pending' and next_attempt_at <= $9
  returning id, endpoint_id, event_id, attempts, (select body from events where events.id = webhook_deliveries.event_id) as body`;

const CLAIM_DUE = {
  /**
   * SQLite: at most `perEndpoint` rows of each endpoint, on the pending rows' index by endpoint and
   * due time (migration 021), through a correlated IN (SQLite has no LATERAL). A claim reads a few
   * rows per endpoint however long the backlog. `?` binds by position: `$3`, the bound per endpoint,
   * is given twice.
   */
  sqlite: claimDue(`select d.id, d.account_id, d.endpoint_id, d.next_attempt_at,
      row_number() over (partition by d.endpoint_id order by d.next_attempt_at, d.id) as endpoint_rank
    from webhook_endpoints e join webhook_deliveries d on d.id in (
      select x.id from webhook_deliveries x where x.endpoint_id = e.id and x.status = 'pending' and x.next_attempt_at <= $2
      order by x.next_attempt_at, x.id limit $3)`).replace(/\$\d+/g, '?'),
  /**
   * PostgreSQL: the same rows, found by walking the pending rows' index by endpoint and due time
   * (migration 021) one row a step: the next row of the endpoint while it is due and fewer than
   * `perEndpoint` were taken, else the first row of the next endpoint. The steps are bounded by the
   * endpoints with pending rows, not by the backlog. Each step asks for rows in the index's own
   * order past a row value, which only that index can answer: a LATERAL per endpoint was planned,
   * with the statistics of one busy endpoint, as a walk of the due index by time for every endpoint.
   */
  postgres: prepared(
    claimDue(
      `select id, account_id, endpoint_id, next_attempt_at, endpoint_rank from walk where next_attempt_at <= $2`,
      `(select x.endpoint_id, x.account_id, x.next_attempt_at, x.id, 1::bigint as endpoint_rank from webhook_deliveries x
        where x.status = 'pending' order by x.endpoint_id, x.next_attempt_at, x.id limit 1)
      union all
      select n.* from walk w cross join lateral (
        select y.endpoint_id, y.account_id, y.next_attempt_at, y.id,
          case when y.endpoint_id = w.endpoint_id then w.endpoint_rank + 1 else 1 end as endpoint_rank
        from webhook_deliveries y
        where y.status = 'pending' and (y.endpoint_id, y.next_attempt_at, y.id) > (w.endpoint_id,
          case when w.endpoint_rank < $3 and w.next_attempt_at <= $2 then w.next_attempt_at else ${Number.MAX_SAFE_INTEGER} end, w.id)
        order by y.endpoint_id, y.next_attempt_at, y.id limit 1
      ) n`,
    ),
  ),
};

/**
 * Leases due deliveries to `runner` until `leaseUntil`, within `limits`, counting the attempt about
 * to be made. A leased row is due again when its lease ends: an instance that dies mid-attempt
 * leaves it to be retried then.
 */
export async function claimDueDeliveries(tx: Db, claim: { now: number; leaseUntil: number; runner: string } & ClaimLimits): Promise<ClaimedDelivery[]> {
  const { now, leaseUntil, runner, limit, perEndpoint, perAccount } = claim;
  await serializeOn(tx, ['webhook-claims']);
  if (isPostgres(tx)) return runText<ClaimedDelivery>(tx, CLAIM_DUE.postgres, [now, now, perEndpoint, leaseUntil, runner, leaseUntil, perAccount, limit, now]);
  return runText<ClaimedDelivery>(tx, CLAIM_DUE.sqlite, [now, now, perEndpoint, perEndpoint, leaseUntil, runner, leaseUntil, perAccount, limit, now]);
}

export type DeliveryOutcome = {
  status: DeliveryStatus;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
};

/** A finished attempt's delivery: what its attempt ended in, and which attempt that was. */
export type FinishedDelivery = { id: string; attempt: number; outcome: DeliveryOutcome };

/**
 * Each delivery by id, fenced by its runner and attempt count; on SQLite the rows are one JSON array,
 * on PostgreSQL one array per column.
 */
const FINISH_DELIVERIES = {
  postgres: prepared(`update webhook_deliveries d set status = f.status, last_status_code = f.last_status_code, last_error = f.last_error,
    next_attempt_at = f.next_attempt_at, lease_until = null, leased_by = null
    from unnest($1::text[], $2::int[], $3::text[], $4::int[], $5::text[], $6::bigint[]) as f(id, attempts, status, last_status_code, last_error, next_attempt_at)
    where d.id = f.id and d.status = 'pending' and d.leased_by = $7 and d.attempts = f.attempts`),
  sqlite: `update webhook_deliveries set status = f.value ->> 2, last_status_code = f.value ->> 3, last_error = f.value ->> 4,
    next_attempt_at = f.value ->> 5, lease_until = null, leased_by = null
    from json_each(?) as f where webhook_deliveries.id = f.value ->> 0 and webhook_deliveries.status = 'pending'
    and webhook_deliveries.leased_by = ? and webhook_deliveries.attempts = f.value ->> 1`,
};

/**
 * Records how a pass's attempts ended, in one statement: each only if its delivery is still this
 * runner's for that attempt (the attempt count fences it). A delivery deleted meanwhile, or leased
 * again after a stall, is left alone.
 */
export async function finishDeliveries(db: Db, runner: string, finished: FinishedDelivery[]): Promise<void> {
  if (finished.length === 0) return;
  const rows = finished.map(({ id, attempt, outcome }) => [id, attempt, outcome.status, outcome.lastStatusCode, outcome.lastError, outcome.nextAttemptAt]);
  if (isPostgres(db)) {
    const columns = rows[0]!.map((_, i) => rows.map((row) => row[i]));
    await runText(db, FINISH_DELIVERIES.postgres, [...columns, runner]);
    return;
  }
  await runText(db, FINISH_DELIVERIES.sqlite, [JSON.stringify(rows), runner]);
}

/** A deleted endpoint's pending deliveries end, failed. */
export async function failPendingDeliveriesOf(db: Db, endpointId: string, error: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', last_error: error, next_attempt_at: null, lease_until: null, leased_by: null })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

/** An event's deliveries, newest first; `limit + 1` are read so the caller can tell whether more exist. */
export function deliveriesOfEvent(db: Db, owner: Owner, eventId: string, limit: number): Promise<WebhookDeliveriesTable[]> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}
