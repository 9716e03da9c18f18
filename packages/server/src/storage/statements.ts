import { CompiledQuery, PostgresAdapter } from 'kysely';
import { literalFunction } from '../object-literal.ts';
import type { Db } from './db.ts';
import { DirectSqliteAdapter } from './sqlite-direct.ts';

/**
 * A hand-written statement of a hot path, its text fixed once: building and compiling it through
 * kysely's query builder on every request cost more CPU than running it.
 */
export type Statement = { postgres: string; sqlite: string };

/** A statement with its parameters, for a caller to run alone or to fold into a larger one (events.ts). */
export type BoundStatement = { statement: Statement; params: unknown[] };

/**
 * PostgreSQL texts of the hot statements, by the name each is prepared under on a connection the
 * first time it runs there (postgres.ts): later runs skip parsing and, once PostgreSQL settles on a
 * generic plan, planning. Only fixed texts are named, so the set stays small.
 */
const preparedNames = new Map<string, string>();

export function preparedName(text: string): string | undefined {
  return preparedNames.get(text);
}

/** A PostgreSQL text to prepare by name; answers the text. */
export function prepared(text: string): string {
  if (!preparedNames.has(text)) preparedNames.set(text, `payframe_${preparedNames.size + 1}`);
  return text;
}

export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * One text for both databases when they agree: PostgreSQL's `$n` placeholders become SQLite's `?`,
 * which bind by position, so each parameter must appear once and in order.
 */
export function portable(postgres: string): Statement {
  let expected = 1;
  const sqlite = postgres.replace(/\$(\d+)/g, (_, n: string) => {
    if (Number(n) !== expected) throw new Error(`Statement parameters out of order at $${n}: ${postgres}`);
    expected += 1;
    return '?';
  });
  return { postgres: prepared(postgres), sqlite };
}

export function runStatement<R>(db: Db, statement: Statement, params: readonly unknown[]): Promise<R[]> {
  return runText<R>(db, isPostgres(db) ? statement.postgres : statement.sqlite, params);
}

/** A text for the database at hand only: the caller chose it by dialect. */
export async function runText<R>(db: Db, text: string, params: readonly unknown[]): Promise<R[]> {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof DirectSqliteAdapter && adapter.runsDirectly(db.isTransaction)) return adapter.rows<R>(text, params);
  const result = await db.executeQuery<R>(CompiledQuery.raw(text, [...params]));
  return result.rows;
}

/** Every column of a table, in the order statements list them: a missing one fails to compile. */
export function allColumns<T>() {
  return <const L extends readonly (keyof T & string)[]>(
    list: L & ([Exclude<keyof T, L[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, L[number]> }),
  ): L => list;
}

/** Quoted, so that reserved words (`authorization`) are names too; `table` qualifies them. */
export function columnList(columns: readonly string[], table?: string, prefix?: string): string {
  return columns.map((column) => `${table ? `${table}.` : ''}"${column}"${prefix ? ` as "${prefix}${column}"` : ''}`).join(', ');
}

export function placeholders(count: number, from = 1): string {
  return Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');
}

/**
 * Reads the table's row out of a joined one, whose columns for it carry `prefix`. The prefixed
 * names are made once here, not per row: on a hot read that was 48 string concatenations a call.
 */
export function rowReader<T>(columns: readonly (keyof T & string)[], prefix = ''): (row: Record<string, unknown>) => T {
  return literalFunction(
    ['row'],
    columns.map((column) => [column, `row[${JSON.stringify(`${prefix}${column}`)}]`]),
  );
}
