import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import pg from 'pg';
import { inProcessStoreOf, storeArgs, TEST_POSTGRES_URL } from './harness.ts';

type Row = Record<string, unknown>;

/**
 * Reads and writes a running server's database directly, as an operator (or an attacker with
 * the files) would: the SQLite file of its data directory, or its PostgreSQL database.
 * Statements use `?` placeholders on both stores.
 */
export async function queryStore(dataDir: string, statement: string, params: unknown[] = []): Promise<Row[]> {
  const inProcess = inProcessStoreOf(dataDir);
  if (inProcess && !TEST_POSTGRES_URL) {
    // Through the in-process server's own connection: a second connection in this thread would
    // block it on a write lock only the server's (now blocked) thread could release.
    const result = await inProcess.transaction((tx) => tx.executeQuery(CompiledQuery.raw(statement, params)));
    return result.rows as Row[];
  }
  if (!TEST_POSTGRES_URL) {
    const sqlite = new SqliteDatabase(join(dataDir, 'payframe.sqlite3'));
    sqlite.pragma('busy_timeout = 5000');
    try {
      const prepared = sqlite.prepare(statement);
      if (prepared.reader) return prepared.all(...params) as Row[];
      prepared.run(...params);
      return [];
    } finally {
      sqlite.close();
    }
  }
  const args = await storeArgs(dataDir);
  const client = new pg.Client({ connectionString: args[args.indexOf('--database-url') + 1] });
  await client.connect();
  try {
    let index = 0;
    const { rows } = await client.query(
      statement.replace(/\?/g, () => `$${++index}`),
      params,
    );
    return rows as Row[];
  } finally {
    await client.end();
  }
}

/** Every row of every table, as JSON text, for searching the whole database for a value. */
export async function everyRow(dataDir: string): Promise<Array<{ table: string; row: string }>> {
  const tables = TEST_POSTGRES_URL
    ? await queryStore(dataDir, "select table_name as name from information_schema.tables where table_schema = 'public'")
    : await queryStore(dataDir, "select name from sqlite_master where type = 'table'");
  const rows: Array<{ table: string; row: string }> = [];
  for (const { name } of tables) {
    for (const row of await queryStore(dataDir, `select * from "${String(name)}"`)) rows.push({ table: String(name), row: JSON.stringify(row) });
  }
  return rows;
}

/** Polls `check` until it holds or `timeoutMs` passes; background work has no event to wait on. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Waits until the request log holds the request that got this answer. The log writes in batches, in
 * order, off the request's path: once an answer's entry is there, so is every earlier one, and a
 * scan of the store then sees what the log keeps of them.
 */
export async function untilRequestLogged(dataDir: string, answer: { headers: Headers }): Promise<void> {
  const requestId = answer.headers.get('request-id');
  if (!requestId) throw new Error('the answer carries no Request-Id');
  await eventually(
    async () => ((await queryStore(dataDir, 'select id from request_log_batches where entries like ?', [`%${requestId}%`])).length > 0 ? true : undefined),
    5_000,
    `request ${requestId} in the request log`,
  );
}
