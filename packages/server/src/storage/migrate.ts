import { type Kysely, type MigrationProvider, Migrator, SqliteAdapter, sql } from 'kysely';
import { MIGRATIONS } from './migrations/index.ts';
import type { Database } from './schema.ts';

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/**
 * Runs pending migrations, in one process at a time however many start together on one store.
 *
 * PostgreSQL: Kysely holds an advisory lock while it reads which migrations ran and runs the rest.
 * SQLite: Kysely takes no lock, and creates its own tables and reads which migrations ran with no
 * transaction open, so two processes on a fresh store both ran 001 (`table "accounts" already
 * exists`). There the whole run is one BEGIN IMMEDIATE transaction: it holds the write lock from
 * before that read to the commit of the last migration, and a second process waits for it
 * (busy_timeout), then finds them all done. Readers see the schema before or after, never between.
 */
export async function migrate(db: Kysely<Database>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await migrateToLatest(db);
    return analyzeUnanalyzedTables(db);
  }
  await db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      await migrateToLatest(connection);
    } catch (error) {
      // SQLite may have rolled it back itself (SQLITE_FULL…): the migration's error is the one to report.
      await sql`rollback`.execute(connection).catch(() => undefined);
      throw error;
    }
    await sql`commit`.execute(connection);
  });
}

async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const { error } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/**
 * PostgreSQL: gives statistics to every table that holds rows but was never analysed (a store
 * filled before its first autovacuum pass, or by an older version), so that the plans made from the
 * first request on know how big it is and how its values spread.
 *
 * An empty table is left alone on purpose: analysed empty, it is planned as the one page it is, and
 * a prepared statement's generic plan made then (a sequential scan) would be kept while the table
 * grows, until autovacuum analyses it again. Never analysed, PostgreSQL assumes at least ten pages
 * and prefers the indexes. The hot reads do not depend on either (repositories/charges.ts).
 */
async function analyzeUnanalyzedTables(db: Kysely<Database>): Promise<void> {
  const { rows } = await sql<{ name: string }>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r' and c.reltuples < 0`.execute(db);
  for (const { name } of rows) {
    const { rows: holding } = await sql<{ found: boolean }>`select exists (select 1 from ${sql.table(name)}) as found`.execute(db);
    if (holding[0]?.found) await sql`analyze ${sql.table(name)}`.execute(db);
  }
}
