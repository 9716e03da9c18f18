import type { Kysely } from 'kysely';

/**
 * The merchant dashboard: its users (scrypt hashes), sessions (only a SHA-256 of the cookie's token,
 * so any instance serves any session and a database dump opens none), failed sign-ins (counted in
 * the database so every instance throttles alike), when each API key was last used, and the name
 * shoppers see on the 3-D Secure page. `accounts.name` stays the unique handle the CLI finds an
 * account by; `display_name`, set from the dashboard's settings, is what shoppers see (the handle
 * when unset), need not be unique, and renaming it never detaches an operator's `--account NAME`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_users')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id'))
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('password_salt', 'text', (col) => col.notNull())
    .addColumn('password_params', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('dashboard_users.id'))
    .addColumn('csrf_token', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('last_seen_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('dashboard_sessions_user').on('dashboard_sessions').column('user_id').execute();

  await db.schema
    .createTable('dashboard_login_failures')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('failed_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('dashboard_login_failures_key').on('dashboard_login_failures').columns(['key', 'failed_at']).execute();

  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
  await db.schema.alterTable('accounts').addColumn('display_name', 'text').execute();
}
