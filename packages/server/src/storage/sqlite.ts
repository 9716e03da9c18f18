import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Connection } from './db.ts';
import { makePrivateFile, prepareDataDirectory, restrictIfPresent } from './file-modes.ts';
import { GroupCommit, GroupCommitSqliteDialect } from './group-commit.ts';
import { migrate } from './migrate.ts';
import type { Database } from './schema.ts';
import { MAX_CACHED_STATEMENTS } from './sqlite-direct.ts';
import { type CheckpointPolicy, DEFAULT_CHECKPOINTS, startCheckpointer } from './wal-checkpointer.ts';
import { BUSY_TIMEOUT_MS, switchToWal } from './wal-mode.ts';
import { walSyncer } from './wal-sync.ts';

/**
 * The embedded store: one SQLite file in the data directory, WAL, every commit fsynced (grouped) before it is acknowledged.
 * `inline` checkpoints inside the COMMITs, as SQLite does by itself, with no worker thread: for a
 * process that runs one command and exits, whose start the worker's own would lengthen.
 */
export async function openSqliteStore(dataDir: string, checkpoints: CheckpointPolicy | 'inline' = DEFAULT_CHECKPOINTS): Promise<Connection> {
  prepareDataDirectory(dataDir);
  const file = join(dataDir, 'payframe.sqlite3');
  // SQLite gives the WAL and SHM files the database file's mode: making it 0600 first covers all three.
  makePrivateFile(file);
  const sqlite = new SqliteDatabase(file);
  // Durability rests on fsyncing the WAL (group-commit.ts): a filesystem where SQLite cannot use one is refused.
  await switchToWal(sqlite, file);
  for (const suffix of ['-wal', '-shm']) restrictIfPresent(`${file}${suffix}`);
  // Erased card data is overwritten on disk, not merely unlinked from the b-tree.
  sqlite.pragma('secure_delete = ON');
  // NORMAL: a COMMIT does not fsync on the main thread; the group commit fsyncs the WAL on the
  // threadpool before it acknowledges anything (group-commit.ts), as durable as FULL.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // 16 MB of page cache (SQLite's default is 2 MB) holds the hot index pages; pages beyond it come
  // from the OS's file cache. A cache that kept every page the flows wrote took the server past its memory budget.
  sqlite.pragma('cache_size = -16384');
  sqlite.pragma('foreign_keys = ON');
  // Savepoints' page images stay in memory: past 64 KiB SQLite would spill them into a temp file,
  // created, written and deleted for most batches (a fifth of the flow's CPU), with sealed card
  // data in them on a disk outside the data directory. A released savepoint frees them.
  sqlite.pragma('temp_store = MEMORY');
  // A server's checkpoints run on a worker thread (wal-checkpointer.ts), not inside a COMMIT on this
  // one; a command's run inside its COMMITs.
  const inlineCheckpoints = () => sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_CHECKPOINTS.restartAtPages}`);
  if (checkpoints === 'inline') inlineCheckpoints();
  else sqlite.pragma('wal_autocheckpoint = 0');
  const wal = walSyncer(`${file}-wal`);
  const group = new GroupCommit(sqlite, wal.sync);
  const database = withStatementCache(sqlite);
  const dialect = new GroupCommitSqliteDialect({ database }, group, (text) => sqlite.prepare(text));
  const db = new Kysely<Database>({ dialect });
  await migrate(db);
  const checkpointer =
    checkpoints === 'inline'
      ? undefined
      : await startCheckpointer(file, checkpoints, {
          // Holding the connection, no transaction or read can start until the WAL has been copied back.
          paused: (restart) =>
            db.connection().execute(async () => {
              group.commitOpenBatch();
              await restart();
            }),
          failed(error) {
            // SQLite's own checkpoints again, inside the COMMITs, as at 10,000 pages before: slower, never unbounded.
            inlineCheckpoints();
            process.emitWarning(`WAL checkpoints are back on the main thread: ${error instanceof Error ? error.message : String(error)}`);
          },
        });
  // Moves when another connection commits to the file (the CLI, say), never for this one's own commits.
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  let seenVersion = dataVersion.get();
  function changedElsewhere(): boolean {
    // Inside a read transaction it would answer for the transaction's snapshot, which may be older
    // than a revocation the request was sent after.
    group.endRead();
    const version = dataVersion.get();
    if (version === seenVersion) return false;
    seenVersion = version;
    return true;
  }
  /** The work's result, once its commit is on disk. */
  async function durable<T>(done: Promise<T>): Promise<T> {
    const result = await done;
    await group.durable();
    return result;
  }
  return {
    db,
    transaction: (work) => durable(dialect.transaction(db, work)),
    write: (work) => durable(dialect.write(db, work)),
    writeUnwaited: (work) => dialect.write(db, work),
    changedElsewhere,
    poolStats: () => dialect.poolStats(),
    async close() {
      try {
        await checkpointer?.close();
        await group.drain();
      } finally {
        wal.close();
        await db.destroy();
      }
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
        if (statements.size < MAX_CACHED_STATEMENTS) statements.set(sql, statement);
      }
      return statement;
    },
  };
}
