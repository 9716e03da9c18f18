import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, type MigrationProvider, Migrator } from 'kysely';
import { GroupCommit, GroupCommitSqliteDialect } from './group-commit.ts';
import { MIGRATIONS } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type StorageLocation = { kind: 'sqlite'; dataDir: string };

export type Store = {
  /** For reads and single statements. */
  db: Kysely<Database>;
  /** Runs `work` in a transaction and resolves only once its commit is on disk. */
  transaction<T>(work: (tx: Kysely<Database>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/** Opens the store, runs pending migrations and returns it ready for requests. */
export async function openStore(location: StorageLocation): Promise<Store> {
  const { dialect, group } = sqliteDialect(location.dataDir);
  const db = new Kysely<Database>({ dialect });
  await migrate(db);
  return {
    db,
    async transaction(work) {
      const result = await db.transaction().execute(work);
      await group.durable();
      return result;
    },
    async close() {
      group.flushNow();
      await db.destroy();
    },
  };
}

function sqliteDialect(dataDir: string) {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const sqlite = new SqliteDatabase(join(dataDir, 'payframe.sqlite3'));
  sqlite.pragma('journal_mode = WAL');
  // FULL: an acknowledged commit is on disk before the response leaves.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const group = new GroupCommit(sqlite);
  return { dialect: new GroupCommitSqliteDialect({ database: withStatementCache(sqlite) }, group), group };
}

/** Kysely prepares every query afresh; the SQL texts repeat, so reuse the prepared statements. */
function withStatementCache(sqlite: SqliteDatabase.Database) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size < 500) statements.set(sql, statement);
      }
      return statement;
    },
  };
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

async function migrate(db: Kysely<Database>): Promise<void> {
  const { error } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
