import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Connection, Db } from './db.ts';
import { makePrivateFile, prepareDataDirectory, restrictIfPresent } from './file-modes.ts';
import { GroupCommit, GroupCommitSqliteDialect } from './group-commit.ts';
import { migrate } from './migrate.ts';
import type { Database } from './schema.ts';

/** The embedded store: one SQLite file in the data directory, WAL, every commit fsynced (grouped). */
export async function openSqliteStore(dataDir: string): Promise<Connection> {
  prepareDataDirectory(dataDir);
  const file = join(dataDir, 'payframe.sqlite3');
  // SQLite gives the WAL and SHM files the database file's mode: making it 0600 first covers all three.
  makePrivateFile(file);
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  for (const suffix of ['-wal', '-shm']) restrictIfPresent(`${file}${suffix}`);
  // Erased card data is overwritten on disk, not merely unlinked from the b-tree.
  sqlite.pragma('secure_delete = ON');
  // FULL: an acknowledged commit is on disk before the response leaves.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  // 16 MB of page cache (SQLite's default is 2 MB) holds the hot index pages; pages beyond it come
  // from the OS's file cache. 64 MB kept every page the flows wrote and took the server past 200 MB of RSS.
  sqlite.pragma('cache_size = -16384');
  sqlite.pragma('foreign_keys = ON');
  // A checkpoint runs inside a COMMIT on the main thread and writes each page it finds once, however
  // many commits rewrote it: at 10,000 WAL pages (40 MB) instead of 1,000 the same index pages are
  // copied back far less often.
  sqlite.pragma('wal_autocheckpoint = 10000');
  const group = new GroupCommit(sqlite);
  const database = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new GroupCommitSqliteDialect({ database }, group, database.prepare) });
  await migrate(db);
  async function transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    const result = await db.transaction().execute(work);
    await group.durable();
    return result;
  }
  return {
    db,
    transaction,
    write: transaction,
    async close() {
      group.flushNow();
      await db.destroy();
    },
  };
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
