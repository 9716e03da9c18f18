import type SqliteDatabase from 'better-sqlite3';
import { SqliteAdapter } from 'kysely';
import { literalFunction } from '../object-literal.ts';

/** A fixed text prepared once: readers return arrays (better-sqlite3's raw mode), turned into rows by `row`. */
type Prepared = { statement: SqliteDatabase.Statement; row: ((values: unknown[]) => unknown) | null };

/**
 * Past this many texts a new one is prepared for its call only: fixed texts are far fewer. The bound
 * of both statement caches on the connection, this one (raw readers) and kysely's (sqlite.ts).
 */
export const MAX_CACHED_STATEMENTS = 500;

/**
 * One object literal per row, its keys the statement's columns in order: better-sqlite3 sets a
 * row's columns one by one through V8's API, which on a 50-column join cost as much as the read.
 */
function rowMaker(columns: readonly string[]): (values: unknown[]) => unknown {
  return literalFunction(
    ['values'],
    columns.map((name, i) => [name, `values[${i}]`]),
  );
}

/**
 * The adapter of the embedded store, carrying its prepared statements. SQLite has one connection,
 * and better-sqlite3 runs a statement to its end before anything else can: a fixed text may run on
 * it directly, rather than through kysely's executor, connection provider and driver (whose
 * promises cost more than the statement), whenever no one else holds the connection. Inside a
 * transaction it belongs to that transaction alone (kysely holds its mutex from BEGIN to COMMIT);
 * outside one, a statement runs directly only while the connection is free, so that it never
 * reads between the statements of another's transaction.
 */
export class DirectSqliteAdapter extends SqliteAdapter {
  readonly #prepare: (sql: string) => SqliteDatabase.Statement;
  /** Whether no one holds the connection; if so, it readies it for a read of its own. */
  readonly #takeForRead: () => boolean;
  readonly #statements = new Map<string, Prepared>();

  constructor(prepare: (sql: string) => SqliteDatabase.Statement, takeForRead: () => boolean) {
    super();
    this.#prepare = prepare;
    this.#takeForRead = takeForRead;
  }

  /** Whether a statement of `db` (a transaction, or not) may run directly now; outside one, it joins the turn's read. */
  runsDirectly(inTransaction: boolean): boolean {
    return inTransaction || this.#takeForRead();
  }

  /** As kysely's SQLite connection answers: the rows of a statement that returns any, else none. */
  rows<R>(text: string, params: readonly unknown[]): R[] {
    const { statement, row } = this.#prepared(text);
    if (row === null) {
      statement.run(params);
      return [];
    }
    const values = statement.all(params) as unknown[][];
    const rows = new Array<R>(values.length);
    for (let i = 0; i < values.length; i++) rows[i] = row(values[i] as unknown[]) as R;
    return rows;
  }

  #prepared(text: string): Prepared {
    let prepared = this.#statements.get(text);
    if (prepared === undefined) {
      const statement = this.#prepare(text);
      const reader = statement.reader;
      if (reader) statement.raw(true);
      prepared = { statement, row: reader ? rowMaker(statement.columns().map((column) => column.name)) : null };
      if (this.#statements.size < MAX_CACHED_STATEMENTS) this.#statements.set(text, prepared);
    }
    return prepared;
  }
}
