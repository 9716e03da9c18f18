import { type Kysely, sql } from 'kysely';

/**
 * `webhook_deliveries_due` holds only pending deliveries, by when each is due: a delivery leaves
 * it when it succeeds or fails, a deleted index entry, rather than moving to the end of a section
 * of settled ones that grows for ever. The worker's probe and claim name `status = 'pending'` as
 * a literal, which both databases need to choose a partial index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_due').execute();
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(db);
}
