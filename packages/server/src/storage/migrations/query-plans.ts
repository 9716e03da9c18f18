import SqliteDatabase from 'better-sqlite3';
import { type CompiledQuery, Kysely, Migrator, SqliteDialect } from 'kysely';
import type { Database } from '../schema.ts';
import { MIGRATIONS } from './index.ts';

/** For the migrations' tests: SQLite's plan of each query `work` runs, on a freshly migrated store. */
export async function plansOf(work: (db: Kysely<Database>) => Promise<unknown>): Promise<string[]> {
  const sqlite = new SqliteDatabase(':memory:');
  const queries: CompiledQuery[] = [];
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => void queries.push(event.query),
  });
  await new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } }).migrateToLatest();
  queries.length = 0;
  await work(db);
  const plans = queries.map((query) =>
    sqlite
      .prepare(`explain query plan ${query.sql}`)
      .all(...query.parameters)
      .map((row) => (row as { detail: string }).detail)
      .join('\n'),
  );
  await db.destroy();
  return plans;
}
