import type SqliteDatabase from 'better-sqlite3';
import { SqliteAdapter } from 'kysely';

/**
 * The adapter of the embedded store, carrying its prepared statements: inside a transaction the
 * single connection belongs to that transaction alone (kysely holds its mutex from BEGIN to
 * COMMIT), so a fixed text can run on better-sqlite3 directly rather than through kysely's
 * executor, connection provider and driver, whose promises cost more than the statement.
 */
export class DirectSqliteAdapter extends SqliteAdapter {
  readonly #prepare: (sql: string) => SqliteDatabase.Statement;

  constructor(prepare: (sql: string) => SqliteDatabase.Statement) {
    super();
    this.#prepare = prepare;
  }

  /** As kysely's SQLite connection answers: the rows of a statement that returns any, else none. */
  rows<R>(text: string, params: readonly unknown[]): R[] {
    const statement = this.#prepare(text);
    if (statement.reader) return statement.all(params) as R[];
    statement.run(params);
    return [];
  }
}
