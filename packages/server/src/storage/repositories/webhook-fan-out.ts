/**
 * The one rule of which endpoints receive an event: the endpoints of its account and mode that
 * are neither deleted nor disabled and take its name. Both the deliveries a change queues (events.ts) and a resend
 * (webhook-deliveries.ts) are this statement; `event` names a relation with the event's `id`,
 * `account_id`, `mode` and `name`.
 *
 * Delivery ids are made here, since how many rows there are is known only here: `whd_`, 12 hex
 * digits of the time and 12 random ones, the form ids.ts gives (so that the index on ids grows at
 * its end).
 */
const DELIVERY_COLUMNS = 'id, account_id, mode, endpoint_id, event_id, status, attempts, next_attempt_at, created_at';

/** PostgreSQL: `now` is a placeholder (or expression) for the real time; `alsoWhere` narrows the endpoints. */
export function fanOutPostgres(event: string, now: string, alsoWhere = ''): string {
  return `insert into webhook_deliveries (${DELIVERY_COLUMNS})
    select 'whd_' || lpad(to_hex(${now}), 12, '0') || left(encode(sha256(gen_random_uuid()::text::bytea), 'hex'), 12), w.account_id, w.mode, w.id, ${event}.id, 'pending', 0, ${now}, ${now}
    from ${event} join webhook_endpoints w on w.account_id = ${event}.account_id and w.mode = ${event}.mode
    where w.deleted_at is null and w.disabled_at is null and w.events::jsonb ? ${event}.name${alsoWhere}`;
}

/** SQLite: parameters in order: the time three times, the event's id, then those of `alsoWhere`. */
export function fanOutSqlite(alsoWhere = ''): string {
  return `insert into webhook_deliveries (${DELIVERY_COLUMNS})
    select 'whd_' || printf('%012x', ?) || lower(hex(randomblob(6))), w.account_id, w.mode, w.id, e.id, 'pending', 0, ?, ?
    from events e join webhook_endpoints w on w.account_id = e.account_id and w.mode = e.mode
    where e.id = ? and w.deleted_at is null and w.disabled_at is null and exists (select 1 from json_each(w.events) where value = e.name)${alsoWhere}`;
}
