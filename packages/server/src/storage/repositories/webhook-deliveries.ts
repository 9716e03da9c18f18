import type { Db } from '../db.ts';
import type { DeliveryStatus, WebhookDeliveriesTable } from '../schema.ts';
import { isPostgres, portable, prepared, runStatement, runText } from '../statements.ts';
import type { Owner } from './owned.ts';

/** Queues deliveries: the worker picks up `pending` rows whose `next_attempt_at` has come. */
export async function insertDeliveries(db: Db, deliveries: WebhookDeliveriesTable[]): Promise<void> {
  if (deliveries.length === 0) return;
  await db.insertInto('webhook_deliveries').values(deliveries).execute();
}

const ANY_DUE = portable(`select 1 as due from webhook_deliveries where status = 'pending' and next_attempt_at <= $1 limit 1`);

/** The worker's poll: one probe of the due index, whose `status = 'pending'` must be a literal to be chosen. */
export async function anyDeliveryDue(db: Db, now: number): Promise<boolean> {
  return (await runStatement(db, ANY_DUE, [now])).length > 0;
}

/** A claimed delivery, with its event's body to send (null only if the event is gone). */
export type ClaimedDelivery = Pick<WebhookDeliveriesTable, 'id' | 'endpoint_id' | 'event_id' | 'attempts'> & { body: string | null };

/**
 * The subquery picks the due rows on the pending rows' due index; the update then finds them by id
 * and answers each with its event's body, which saves the pass a read of its own. On SQLite the
 * unary `+` keeps the planner off that index for the outer conditions, which would otherwise walk
 * every due row for each claim.
 */
const CLAIM_DUE = {
  postgres: prepared(`update webhook_deliveries set attempts = attempts + 1, lease_until = $1, leased_by = $2, next_attempt_at = $3
    where id in (select id from webhook_deliveries where status = 'pending' and next_attempt_at <= $4 order by next_attempt_at limit $5 for update skip locked)
    and status = 'pending' and next_attempt_at <= $6 and (lease_until is null or lease_until < $7)
    returning id, endpoint_id, event_id, attempts, (select body from events where events.id = webhook_deliveries.event_id) as body`),
  sqlite: `update webhook_deliveries set attempts = attempts + 1, lease_until = ?, leased_by = ?, next_attempt_at = ?
    where id in (select id from webhook_deliveries where status = 'pending' and next_attempt_at <= ? order by next_attempt_at limit ?)
    and +status = 'pending' and +next_attempt_at <= ? and (lease_until is null or lease_until < ?)
    returning id, endpoint_id, event_id, attempts, (select body from events where events.id = webhook_deliveries.event_id) as body`,
};

/**
 * Leases up to `limit` due deliveries to `runner` until `leaseUntil`, counting the attempt about to
 * be made. The update is conditional, so of several instances only one takes a row; PostgreSQL
 * instances also skip rows another is claiming. A leased row is due again when its lease ends:
 * an instance that dies mid-attempt leaves it to be retried then.
 */
export function claimDueDeliveries(db: Db, claim: { now: number; leaseUntil: number; runner: string; limit: number }): Promise<ClaimedDelivery[]> {
  const { now, leaseUntil, runner, limit } = claim;
  return runStatement<ClaimedDelivery>(db, CLAIM_DUE, [leaseUntil, runner, leaseUntil, now, limit, now, now]);
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
