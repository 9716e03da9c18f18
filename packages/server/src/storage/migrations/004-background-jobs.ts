import type { Kysely } from 'kysely';

/**
 * Background jobs (the sweeper) run in every instance; a row per job, taken with a conditional
 * update, lets the database pick one instance per run. Unused tokens are found by age.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('background_jobs')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('next_run_at', 'bigint', (col) => col.notNull())
    .addColumn('last_runner', 'text')
    .execute();
  await db.schema.createIndex('tokens_unused_created_at').on('tokens').columns(['used_at', 'created_at']).execute();
}
