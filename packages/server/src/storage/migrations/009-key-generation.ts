import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * `key_generation`: one counter that moves whenever what an API key resolves to may have changed
 * (a key revoked or deleted, an account's test clock moved). Instances cache resolved keys and poll
 * this one row instead of reading the key on every request. Triggers bump it in the statement that
 * makes the change, so no writer (the server, the CLI in another process, a hand-written UPDATE)
 * can forget to.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('key_generation')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('generation', 'bigint', (col) => col.notNull())
    .execute();
  await sql`insert into key_generation (id, generation) values (1, 0)`.execute(db);
  const changes = [
    { name: 'api_keys_revoked', on: sql`update of revoked_at on api_keys` },
    { name: 'api_keys_deleted', on: sql`delete on api_keys` },
    { name: 'accounts_clock_moved', on: sql`update of test_clock_offset on accounts` },
  ];
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function bump_key_generation() returns trigger language plpgsql as $$
      begin
        update key_generation set generation = generation + 1;
        return null;
      end
    $$`.execute(db);
    for (const change of changes) {
      await sql`create trigger ${sql.raw(change.name)} after ${change.on} for each statement execute function bump_key_generation()`.execute(db);
    }
    return;
  }
  for (const change of changes) {
    await sql`create trigger ${sql.raw(change.name)} after ${change.on} begin update key_generation set generation = generation + 1; end`.execute(db);
  }
}
