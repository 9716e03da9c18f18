import { type Kysely, sql } from 'kysely';

// Migrations see an untyped database: they describe the schema, they do not rely on it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('test_clock_offset', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('hash', 'text', (col) => col.notNull().unique())
    .addColumn('hint', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('brand', 'text', (col) => col.notNull())
    .addColumn('funding', 'text', (col) => col.notNull())
    .addColumn('country', 'text', (col) => col.notNull())
    .addColumn('bank', 'text', (col) => col.notNull())
    .addColumn('authorization', 'text', (col) => col.notNull())
    .addColumn('bin', 'text', (col) => col.notNull())
    .addColumn('last4', 'text', (col) => col.notNull())
    .addColumn('exp_month', 'integer', (col) => col.notNull())
    .addColumn('exp_year', 'integer', (col) => col.notNull())
    .addColumn('fingerprint', 'text', (col) => col.notNull())
    .addColumn('card_secret', 'text')
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('address_line1', 'text')
    .addColumn('address_line2', 'text')
    .addColumn('address_city', 'text')
    .addColumn('address_state', 'text')
    .addColumn('address_zip', 'text')
    .addColumn('address_country', 'text')
    .addColumn('shopper_ip', 'text', (col) => col.notNull())
    .addColumn('shopper_session_id', 'text', (col) => col.notNull())
    .addColumn('shopper_email', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('charges')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (col) => col.notNull())
    // One charge per token, enforced by the database whatever the application does.
    .addColumn('token_id', 'text', (col) => col.notNull().unique().references('tokens.id'))
    .addColumn('amount', 'bigint', (col) => col.notNull())
    .addColumn('amount_refunded', 'bigint', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('txn_reference', 'text')
    .addColumn('return_url', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('threeds_status', 'text', (col) => col.notNull())
    .addColumn('reason', 'text')
    .addColumn('fees', 'bigint')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull())
    .addCheckConstraint('charges_refund_bounds', sql`amount_refunded >= 0 and amount_refunded <= amount`)
    .execute();

  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id'))
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('charge_id', 'text', (col) => col.notNull().references('charges.id'))
    .addColumn('amount', 'bigint', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('fee_refunded', 'bigint', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('refunds_charge_id').on('refunds').column('charge_id').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('request_hash', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('locked_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'mode', 'key'])
    .execute();
}
