import type { Kysely } from 'kysely';

/**
 * The request log (docs/dashboard.md, "Request log"): one row per /v2 request of an account and
 * mode, kept 7 days, with its parameters and response as JSON text from which card numbers and CVCs
 * were removed before writing. Listed newest first per account and mode; swept by age.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('request_log')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('method', 'text', (col) => col.notNull())
    .addColumn('path', 'text', (col) => col.notNull())
    .addColumn('status', 'integer', (col) => col.notNull())
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .addColumn('key_id', 'text')
    .addColumn('idempotency_key', 'text')
    .addColumn('request', 'text', (col) => col.notNull())
    .addColumn('response', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('request_log_list').on('request_log').columns(['account_id', 'mode', 'created_at', 'id']).execute();
  await db.schema.createIndex('request_log_age').on('request_log').column('created_at').execute();
}
