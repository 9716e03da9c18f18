import type SqliteDatabase from 'better-sqlite3';
import {
  type DatabaseConnection,
  type DialectAdapter,
  type Kysely,
  SingleConnectionProvider,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  Transaction,
} from 'kysely';
import { runsPartsAtomically } from './atomically.ts';
import type { PoolStats } from './db.ts';
import { DirectSqliteAdapter } from './sqlite-direct.ts';
import { SyncPipeline, type Waiter } from './sync-pipeline.ts';
import type { SyncWal } from './wal-sync.ts';

/**
 * Group commit for SQLite in WAL mode: each transaction of the application becomes a savepoint
 * inside one open database transaction, and one COMMIT ends a whole batch. Kysely's mutex still
 * runs one transaction at a time.
 *
 * The fsync is not the COMMIT's. At synchronous=NORMAL a COMMIT only appends the batch's frames to
 * the WAL (write(), no fsync); `sync` then fdatasyncs the WAL file on libuv's threadpool, and the
 * batch's callers are acknowledged once a sync that began after their COMMIT has completed, while
 * the main thread runs the next batch. That is the durability of synchronous=FULL, whose COMMIT
 * fsyncs the same file at the same point: on Linux fsync covers every written page of the inode,
 * whichever descriptor wrote it, and a WAL frame is in the file once write() returns. SQLite itself
 * still fsyncs where NORMAL does: the WAL before a checkpoint copies it into the database, the
 * database after, and a reset WAL's new header, so the WAL is never rewritten over frames the
 * database does not hold yet. WAL mode at NORMAL is corruption-safe: frames carry checksums, and
 * recovery after kill -9 or power loss keeps the longest valid prefix of whole commits, which holds
 * every acknowledged one. A caller acknowledges nothing before `durable()` resolves.
 */
export class GroupCommit {
  readonly #sqlite: SqliteDatabase.Database;
  // Prepared once: exec() parses its text again on every call, and these run for every request.
  readonly #begin: SqliteDatabase.Statement;
  readonly #savepoint: SqliteDatabase.Statement;
  readonly #release: SqliteDatabase.Statement;
  readonly #rollbackTo: SqliteDatabase.Statement;
  readonly #commit: SqliteDatabase.Statement;
  readonly #beginRead: SqliteDatabase.Statement;
  #batchOpen = false;
  #readOpen = false;
  #inTransaction = false;
  #savepointOpen = false;
  #flushScheduled = false;
  #waiters: Waiter[] = [];
  readonly #synced: SyncPipeline;

  constructor(sqlite: SqliteDatabase.Database, sync: SyncWal) {
    this.#sqlite = sqlite;
    // A batch that waited out a sync commits as soon as it completes, and the next sync begins.
    this.#synced = new SyncPipeline(sync, () => {
      if (!this.#inTransaction) this.#flush();
    });
    this.#begin = sqlite.prepare('BEGIN IMMEDIATE');
    this.#savepoint = sqlite.prepare('SAVEPOINT app_transaction');
    this.#release = sqlite.prepare('RELEASE app_transaction');
    this.#rollbackTo = sqlite.prepare('ROLLBACK TO app_transaction');
    this.#commit = sqlite.prepare('COMMIT');
    this.#beginRead = sqlite.prepare('BEGIN');
  }

  /**
   * Before a read outside any transaction: the reads of this turn of the event loop share one read
   * transaction, ended at the turn's end or when a batch begins. Alone, each read would take and
   * drop the WAL's shared-memory read lock, two `fcntl` calls that cost twice the read of a charge
   * by its id. Its snapshot may miss another process's commit made since the turn's first read
   * (the CLI's, microseconds before); the key check ends it first (`endRead`) to miss none.
   */
  read(): void {
    // Inside a transaction already (this turn's read, a batch, or one opened by hand), reads share it.
    if (this.#sqlite.inTransaction) return;
    this.#beginRead.run();
    this.#readOpen = true;
    setImmediate(() => this.endRead());
  }

  /** Ends the turn's read transaction, if one is open: the next read sees every commit so far. */
  endRead(): void {
    if (!this.#readOpen) return;
    this.#readOpen = false;
    // A store closed within the turn has ended the transaction with its connection.
    if (this.#sqlite.open) this.#commit.run();
  }

  /** A transaction of the application: a savepoint of the open batch. */
  begin(): void {
    this.join();
    this.#openSavepoint();
  }

  commit(): void {
    this.#releaseSavepoint();
    this.#end();
  }

  rollback(): void {
    this.#rollbackToSavepoint();
    this.#end();
  }

  /**
   * Work whose every statement stands alone (Store.write) runs in the open batch without a
   * savepoint: a statement that fails undoes only itself, as on PostgreSQL, where each commits
   * alone. The batch stays open until `leave`, so none of the work's statements commits by itself.
   */
  join(): void {
    if (!this.#batchOpen) {
      // IMMEDIATE takes the write lock up front (waiting out busy_timeout): a deferred batch that
      // read first could not upgrade to a write after another process (the CLI) had committed.
      this.endRead();
      this.#begin.run();
      this.#batchOpen = true;
    }
    this.#inTransaction = true;
  }

  leave(): void {
    this.#end();
  }

  /**
   * Inside work that joined the batch (a write), `part` all or nothing: in a savepoint of its own,
   * unless one is open already (a transaction, or an enclosing part).
   */
  async atomicPart<T>(part: () => Promise<T>): Promise<T> {
    if (this.#savepointOpen) return part();
    this.#openSavepoint();
    let result: T;
    try {
      result = await part();
    } catch (error) {
      this.#rollbackToSavepoint();
      throw error;
    }
    this.#releaseSavepoint();
    return result;
  }

  #openSavepoint(): void {
    this.#savepoint.run();
    this.#savepointOpen = true;
  }

  #releaseSavepoint(): void {
    // Cleared first: a RELEASE that fails leaves no savepoint a later part could count on.
    this.#savepointOpen = false;
    this.#release.run();
  }

  #rollbackToSavepoint(): void {
    this.#rollbackTo.run();
    this.#releaseSavepoint();
  }

  /** Resolves once everything committed so far is on disk. */
  durable(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!this.#batchOpen) return this.#synced.wait({ resolve, reject });
      this.#waiters.push({ resolve, reject });
      this.#scheduleFlush();
    });
  }

  /**
   * Commits the open batch now, unless a transaction is still running in it; its callers are
   * acknowledged by the next sync as ever. For a caller that holds the connection (no transaction
   * can begin) and needs the write lock free: the WAL's restart.
   */
  commitOpenBatch(): void {
    this.endRead();
    if (!this.#inTransaction) this.#flush();
  }

  /** Commits the open batch now and resolves once it is on disk: for shutdown. */
  drain(): Promise<void> {
    this.commitOpenBatch();
    return new Promise((resolve, reject) => this.#synced.wait({ resolve, reject }));
  }

  #end(): void {
    this.#inTransaction = false;
    this.#scheduleFlush();
  }

  // setImmediate lets every transaction already queued on the connection join this batch first.
  // While a sync runs the batch stays open: committed now, it would wait for the next sync all the
  // same, and one COMMIT for all that arrived meanwhile writes each shared index page to the WAL once.
  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      // A transaction still running will schedule the flush again when it ends.
      if (!this.#inTransaction && !this.#synced.syncing) this.#flush();
    });
  }

  #flush(): void {
    if (!this.#batchOpen) return;
    const waiters = this.#waiters.splice(0);
    try {
      this.#commit.run();
      this.#batchOpen = false;
    } catch (error) {
      // Nothing of the batch was acknowledged: undo it all and fail every waiting request.
      if (this.#sqlite.inTransaction) this.#sqlite.exec('ROLLBACK');
      this.#batchOpen = false;
      for (const waiter of waiters) waiter.reject(error);
      return;
    }
    this.#synced.committed(waiters);
  }
}

class GroupCommitDriver extends SqliteDriver {
  readonly #group: GroupCommit;
  #held = false;
  #waiting = 0;

  constructor(config: SqliteDialectConfig, group: GroupCommit) {
    super(config);
    this.#group = group;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    this.#waiting += 1;
    let connection: DatabaseConnection;
    try {
      connection = await super.acquireConnection();
    } finally {
      this.#waiting -= 1;
    }
    this.#held = true;
    return connection;
  }

  /** Transactions (and callers of `db.connection()`) waiting for the connection's mutex. */
  get waiting(): number {
    return this.#waiting;
  }

  override async releaseConnection(): Promise<void> {
    this.#held = false;
    await super.releaseConnection();
  }

  /** Whether someone holds the connection: a transaction, or a caller of `db.connection()`. */
  get held(): boolean {
    return this.#held;
  }

  override async beginTransaction(): Promise<void> {
    this.#group.begin();
  }

  override async commitTransaction(): Promise<void> {
    this.#group.commit();
  }

  override async rollbackTransaction(): Promise<void> {
    this.#group.rollback();
  }
}

export class GroupCommitSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #group: GroupCommit;
  readonly #prepare: ((sql: string) => SqliteDatabase.Statement) | undefined;
  #driver: GroupCommitDriver | undefined;
  #transaction: Transaction<never> | undefined;

  /** With `prepare`, fixed texts in a transaction run on it directly (sqlite-direct.ts). */
  constructor(config: SqliteDialectConfig, group: GroupCommit, prepare?: (sql: string) => SqliteDatabase.Statement) {
    super(config);
    this.#config = config;
    this.#group = group;
    this.#prepare = prepare;
  }

  override createAdapter(): DialectAdapter {
    if (!this.#prepare) return super.createAdapter();
    return new DirectSqliteAdapter(this.#prepare, () => {
      if (this.#driver?.held !== false) return false;
      this.#group.read();
      return true;
    });
  }

  override createDriver(): SqliteDriver {
    this.#driver = new GroupCommitDriver(this.#config, this.#group);
    return this.#driver;
  }

  /**
   * The store's one connection as a pool of one, for the metrics: in use while a transaction (or a
   * caller of `db.connection()`) holds it, with the transactions queued behind it. Reads outside a
   * transaction run at once when it is free and never wait, so they are not counted.
   */
  poolStats(): PoolStats {
    const driver = this.#driver;
    return { total: 1, idle: driver?.held ? 0 : 1, waiting: driver?.waiting ?? 0 };
  }

  /**
   * What `db.transaction().execute(work)` does (the connection's mutex, then a savepoint of the
   * open batch), less its cost on every call: kysely builds a Transaction, an executor and a
   * connection provider each time, about 4 % of the flow bench's main thread. SQLite has one
   * connection, so one Transaction bound to it serves every transaction; the mutex keeps it to the
   * one that holds it. `db` is the Kysely this dialect was created for.
   */
  transaction<DB, T>(db: Kysely<DB>, work: (tx: Transaction<DB>) => Promise<T>): Promise<T> {
    return this.#holding(db, work, true);
  }

  /**
   * Store.write: the same, without the savepoint (GroupCommit.join), whose two statements cost
   * as much as the one statement of most writes. A part of the work that must be all or nothing
   * says so with `atomically`, which then takes a savepoint for it alone.
   */
  write<DB, T>(db: Kysely<DB>, work: (tx: Transaction<DB>) => Promise<T>): Promise<T> {
    return this.#holding(db, work, false);
  }

  async #holding<DB, T>(db: Kysely<DB>, work: (tx: Transaction<DB>) => Promise<T>, allOrNothing: boolean): Promise<T> {
    const driver = this.#driver;
    if (!driver) throw new Error('The dialect has no driver: create the Kysely first');
    const connection = await driver.acquireConnection();
    try {
      const tx = this.#boundTransaction(db, connection);
      if (allOrNothing) this.#group.begin();
      else this.#group.join();
      let result: T;
      try {
        result = await work(tx);
      } catch (error) {
        if (allOrNothing) this.#group.rollback();
        else this.#group.leave();
        throw error;
      }
      if (allOrNothing) this.#group.commit();
      else this.#group.leave();
      return result;
    } finally {
      await driver.releaseConnection();
    }
  }

  #boundTransaction<DB>(db: Kysely<DB>, connection: DatabaseConnection): Transaction<DB> {
    if (!this.#transaction) {
      this.#transaction = new Transaction<never>({
        config: { dialect: this },
        dialect: this,
        driver: this.#driver as GroupCommitDriver,
        executor: db.getExecutor().withConnectionProvider(new SingleConnectionProvider(connection)),
      });
      runsPartsAtomically(this.#transaction, (part) => this.#group.atomicPart(part));
    }
    return this.#transaction as unknown as Transaction<DB>;
  }
}
