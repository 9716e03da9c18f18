import { type Kysely, sql } from 'kysely';

/**
 * Idempotency records gain the kind of API key that made them, in their primary key: a request
 * with the (public) publishable key can no longer occupy a key the merchant's secret key uses.
 * SQLite cannot change a primary key, so the table is rebuilt the same way on both stores.
 * Earlier records are kept as the secret key's: their kind is not known, and a merchant's retry
 * must still replay.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys_rebuilt')
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('key_kind', 'text', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('request_hash', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('locked_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_scope_pk', ['account_id', 'mode', 'key_kind', 'key'])
    .execute();

  const columns = ['account_id', 'mode', 'key', 'request_hash', 'state', 'response_status', 'response_body', 'created_at', 'locked_at'];
  await db
    .insertInto('idempotency_keys_rebuilt' as never)
    .columns([...columns, 'key_kind'] as never[])
    .expression(
      db.selectFrom('idempotency_keys' as never).select([...columns.map((column) => sql.ref(column).as(column)), sql.lit('secret').as('key_kind')] as never[]),
    )
    .execute();

  await db.schema.dropTable('idempotency_keys').execute();
  await db.schema.alterTable('idempotency_keys_rebuilt').renameTo('idempotency_keys').execute();
  // Lets the sweeper find records past their replay window without reading the whole table.
  await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute();
}
