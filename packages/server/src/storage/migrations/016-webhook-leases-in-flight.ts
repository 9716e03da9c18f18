import { type Kysely, sql } from 'kysely';

/**
 * The delivery worker counts the attempts in flight per endpoint and per account on every claim
 * (docs/webhooks.md, "Fair delivery"). A lease is set while an attempt runs and cleared when it
 * ends, so this index holds only the few rows leased now (and those a dead instance left until
 * they are claimed again), however long the table grows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index webhook_deliveries_leased on webhook_deliveries (lease_until, endpoint_id, account_id) where lease_until is not null`.execute(db);
}
