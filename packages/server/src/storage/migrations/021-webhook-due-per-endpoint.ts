import { type Kysely, sql } from 'kysely';

/**
 * The delivery worker's claim takes, for each endpoint, its few oldest due deliveries (docs/webhooks.md,
 * "Fair delivery"). Ranking every due delivery to find them made each claim read the whole backlog:
 * with a receiver that is down, or slower than the flow of events, every claim grew dearer. This
 * index holds the pending rows by endpoint and due time, so a claim reads a few rows per endpoint.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index webhook_deliveries_endpoint_due on webhook_deliveries (endpoint_id, next_attempt_at, id) where status = 'pending'`.execute(db);
}
