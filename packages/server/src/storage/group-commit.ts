import type SqliteDatabase from 'better-sqlite3';
import { type DialectAdapter, SqliteDialect, type SqliteDialectConfig, SqliteDriver } from 'kysely';
import { DirectSqliteAdapter } from './sqlite-direct.ts';

/**
 * Group commit for SQLite at synchronous=FULL: each transaction of the application becomes a
 * savepoint inside one open database transaction, and one COMMIT (one fsync) makes a whole batch
 * durable. A caller acknowledges nothing before `durable()` resolves, so durability is unchanged;
 * only the number of fsyncs falls. Kysely's mutex still runs one transaction at a time.
 */
export class GroupCommit {
  readonly #sqlite: SqliteDatabase.Database;
  // Prepared once: exec() parses its text again on every call, and these run for every request.
  readonly #begin: SqliteDatabase.Statement;
  readonly #savepoint: SqliteDatabase.Statement;
  readonly #release: SqliteDatabase.Statement;
  readonly #rollbackTo: SqliteDatabase.Statement;
  readonly #commit: SqliteDatabase.Statement;
  #batchOpen = false;
  #inTransaction = false;
  #flushScheduled = false;
  #waiters: Array<{ resolve(): void; reject(error: unknown): void }> = [];

  constructor(sqlite: SqliteDatabase.Database) {
    this.#sqlite = sqlite;
    this.#begin = sqlite.prepare('BEGIN IMMEDIATE');
    this.#savepoint = sqlite.prepare('SAVEPOINT app_transaction');
    this.#release = sqlite.prepare('RELEASE app_transaction');
    this.#rollbackTo = sqlite.prepare('ROLLBACK TO app_transaction');
    this.#commit = sqlite.prepare('COMMIT');
  }

  begin(): void {
    if (!this.#batchOpen) {
      // IMMEDIATE takes the write lock up front (waiting out busy_timeout): a deferred batch that
      // read first could not upgrade to a write after another process (the CLI) had committed.
      this.#begin.run();
      this.#batchOpen = true;
    }
    this.#savepoint.run();
    this.#inTransaction = true;
  }

  commit(): void {
    this.#release.run();
    this.#end();
  }

  rollback(): void {
    this.#rollbackTo.run();
    this.#release.run();
    this.#end();
  }

  /** Resolves once everything committed so far is on disk. */
  durable(): Promise<void> {
    if (!this.#batchOpen) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#scheduleFlush();
    });
  }

  /** Commits the open batch now: for shutdown. */
  flushNow(): void {
    if (!this.#inTransaction) this.#flush();
  }

  #end(): void {
    this.#inTransaction = false;
    this.#scheduleFlush();
  }

  // setImmediate lets every transaction already queued on the connection join this batch first.
  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      // A transaction still running will schedule the flush again when it ends.
      if (!this.#inTransaction) this.#flush();
    });
  }

  #flush(): void {
    if (!this.#batchOpen) return;
    const waiters = this.#waiters.splice(0);
    try {
      this.#commit.run();
      this.#batchOpen = false;
      for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      // Nothing of the batch was acknowledged: undo it all and fail every waiting request.
      if (this.#sqlite.inTransaction) this.#sqlite.exec('ROLLBACK');
      this.#batchOpen = false;
      for (const waiter of waiters) waiter.reject(error);
    }
  }
}

class GroupCommitDriver extends SqliteDriver {
  readonly #group: GroupCommit;

  constructor(config: SqliteDialectConfig, group: GroupCommit) {
    super(config);
    this.#group = group;
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

  /** With `prepare`, fixed texts in a transaction run on it directly (sqlite-direct.ts). */
  constructor(config: SqliteDialectConfig, group: GroupCommit, prepare?: (sql: string) => SqliteDatabase.Statement) {
    super(config);
    this.#config = config;
    this.#group = group;
    this.#prepare = prepare;
  }

  override createAdapter(): DialectAdapter {
    return this.#prepare ? new DirectSqliteAdapter(this.#prepare) : super.createAdapter();
  }

  override createDriver(): SqliteDriver {
    return new GroupCommitDriver(this.#config, this.#group);
  }
}
