import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Events (one per change of a charge, written in the change's transaction) and the webhook
 * tables fed from them. `seq` orders events by commit for the stream; lists read newest first
 * by `created_at`, with `seq` breaking ties so events of one millisecond keep their order.
 * Charges gain lower-cased copies of what lists filter on, so that every filter has an index,
 * and an index by status and age for the sweeper that records expiry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('events')
    .addColumn('seq', postgres ? 'bigint' : 'integer', (col) => (postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement()))
    .addColumn('id', 'text', (col) => col.notNull().unique())
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('charge_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .execute();
  const eventIndexes: Record<string, string[]> = {
    events_newest: ['account_id', 'mode', 'created_at', 'seq'],
    events_by_charge: ['account_id', 'mode', 'charge_id', 'created_at', 'seq'],
    events_by_name: ['account_id', 'mode', 'name', 'created_at', 'seq'],
    events_by_seq: ['account_id', 'mode', 'seq'],
  };
  for (const [name, columns] of Object.entries(eventIndexes)) {
    await db.schema.createIndex(name).on('events').columns(columns).execute();
  }

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('events', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('secret_sealed', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('webhook_endpoints_owner').on('webhook_endpoints').columns(['account_id', 'mode', 'created_at']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('endpoint_id', 'text', (col) => col.notNull())
    .addColumn('event_id', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull())
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('lease_until', 'bigint')
    .addColumn('leased_by', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('delivery_id', 'text', (col) => col.notNull())
    .addColumn('attempt', 'integer', (col) => col.notNull())
    .addColumn('started_at', 'bigint', (col) => col.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'attempt'])
    .execute();

  await db.schema.alterTable('charges').addColumn('email', 'text').execute();
  await db.schema.alterTable('charges').addColumn('last4', 'text').execute();
  await sql`update charges set email = (select lower(tokens.shopper_email) from tokens where tokens.id = charges.token_id),
    last4 = (select tokens.last4 from tokens where tokens.id = charges.token_id)`.execute(db);
  const chargeIndexes: Record<string, string[]> = {
    charges_newest: ['account_id', 'mode', 'created_at', 'id'],
    charges_by_status: ['account_id', 'mode', 'status', 'created_at', 'id'],
    charges_by_txn_reference: ['account_id', 'mode', 'txn_reference', 'created_at', 'id'],
    charges_by_email: ['account_id', 'mode', 'email', 'created_at', 'id'],
    charges_by_last4: ['account_id', 'mode', 'last4', 'created_at', 'id'],
    refunds_newest: ['account_id', 'mode', 'created_at', 'id'],
    refunds_by_charge: ['account_id', 'mode', 'charge_id', 'created_at', 'id'],
  };
  for (const [name, columns] of Object.entries(chargeIndexes)) {
    await db.schema
      .createIndex(name)
      .on(name.startsWith('refunds') ? 'refunds' : 'charges')
      .columns(columns)
      .execute();
  }
  // The sweeper finds pending charges past their deadline across accounts, oldest first.
  await db.schema.createIndex('charges_pending_deadline').on('charges').columns(['status', 'created_at']).execute();
}
