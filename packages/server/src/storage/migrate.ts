import { type Kysely, type MigrationProvider, Migrator } from 'kysely';
import { MIGRATIONS } from './migrations/index.ts';
import type { Database } from './schema.ts';

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/**
 * Runs pending migrations. On PostgreSQL Kysely holds an advisory lock meanwhile, so instances
 * starting together on an empty database run them once; on SQLite the write lock does the same.
 */
export async function migrate(db: Kysely<Database>): Promise<void> {
  const { error } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
