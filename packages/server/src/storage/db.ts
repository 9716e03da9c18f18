import type { Kysely } from 'kysely';
import type { PostgresOptions } from './postgres.ts';
import type { Database } from './schema.ts';
import { openSqliteStore } from './sqlite.ts';
import { orUnavailable } from './unavailable.ts';

export type StorageLocation = { kind: 'sqlite'; dataDir: string } | ({ kind: 'postgres' } & PostgresOptions);

/** A connection or a transaction: repositories run their queries on whichever the caller opened. */
export type Db = Kysely<Database>;

/** What the dialects provide: the connection pool and a durable transaction runner. */
export type Connection = {
  db: Db;
  /** Runs `work` in a transaction and resolves only once its commit is durable. */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  /** See Store.write. */
  write<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /** See Store.writeUnwaited. */
  writeUnwaited<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /** See Store.changedElsewhere. */
  changedElsewhere?: () => boolean;
  /** See Store.poolStats. */
  poolStats?: () => PoolStats;
  close(): Promise<void>;
};

/** A connection pool's connections: all of them, the idle ones, and the callers waiting for one. */
export type PoolStats = { total: number; idle: number; waiting: number };

/**
 * The store as the rest of the server uses it. Work receives a `Db` to hand to repositories;
 * a database outage in any of it arrives as PayframeError('SERVICE_UNAVAILABLE').
 */
export type Store = {
  /** Reads and single statements, outside a transaction. */
  read<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /** Runs `work` in a transaction and resolves only once its commit is durable. */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Runs a mutation whose every write is one statement, or is wrapped in `atomically`: on
   * PostgreSQL each such write commits alone, saving the BEGIN and COMMIT round trips of a
   * transaction. SQLite runs it in the open batch of its group commit, durable like a transaction,
   * without a savepoint: there a statement costs no round trip and a commit of its own would cost an
   * fsync, and there too a statement that fails undoes only itself.
   */
  write<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /**
   * `write` for what nobody waits to see on disk, and whose loss in a crash is accepted (the request
   * log): it resolves once committed, not once durable. On SQLite its commit starts no fsync of its
   * own: the next one that something else waits for covers it, and closing the store syncs what is
   * left. On PostgreSQL it is `write`.
   */
  writeUnwaited<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /**
   * Whether another process has committed to the store since the last call, where that costs
   * next to nothing to know (SQLite's data_version); absent elsewhere.
   */
  changedElsewhere?: () => boolean;
  /** The connection pool's state, for the metrics: PostgreSQL's pool, or SQLite's one connection. */
  poolStats?: () => PoolStats;
  close(): Promise<void>;
};

/**
 * Opens the store, runs pending migrations and returns it ready for requests. A `command` (the
 * CLI's, which writes a few rows and exits) has the embedded store checkpoint inline, without the
 * server's checkpoint thread.
 */
export async function openStore(location: StorageLocation, use: 'server' | 'command' = 'server'): Promise<Store> {
  // Loaded only when asked for: the PostgreSQL driver would add its loading to every embedded store's start.
  const connection = await (location.kind === 'sqlite'
    ? openSqliteStore(location.dataDir, use === 'command' ? 'inline' : undefined)
    : (await import('./postgres.ts')).openPostgresStore(location));
  return {
    read: (work) => orUnavailable(() => work(connection.db)),
    transaction: (work) => orUnavailable(() => connection.transaction(work)),
    write: (work) => orUnavailable(() => connection.write(work)),
    writeUnwaited: (work) => orUnavailable(() => connection.writeUnwaited(work)),
    ...(connection.changedElsewhere ? { changedElsewhere: connection.changedElsewhere } : {}),
    ...(connection.poolStats ? { poolStats: connection.poolStats } : {}),
    close: () => connection.close(),
  };
}
