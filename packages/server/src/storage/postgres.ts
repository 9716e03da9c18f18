import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Connection } from './db.ts';
import { migrate } from './migrate.ts';
import type { Database } from './schema.ts';

export type PostgresOptions = {
  url: string;
  poolSize: number;
  /** Longest a statement may run on the server; the client gives up a second later. */
  statementTimeoutMs: number;
  /** Longest to wait for a connection, new or from the pool, before answering 503. */
  connectTimeoutMs: number;
  onPoolError(error: Error): void;
};

const INT8_OID = 20;

/** Transient failures that a whole transaction may safely run again after. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

/** PostgreSQL for scale-out: any number of stateless instances share it. */
export async function openPostgresStore(options: PostgresOptions): Promise<Connection> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    statement_timeout: options.statementTimeoutMs,
    query_timeout: options.statementTimeoutMs + 1_000,
    keepAlive: true,
    // Times and money are bigint columns; every value fits a JavaScript number exactly.
    types: { getTypeParser: (oid: number, format?: string) => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as 'text')) },
  });
  // A connection lost while idle or in use must not crash the process (pg-pool only covers idle
  // ones): the query in flight fails with a 503 and the next one reconnects.
  pool.on('error', options.onPoolError);
  pool.on('connect', (client) => client.on('error', options.onPoolError));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return {
    db,
    async transaction(work) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction().execute(work);
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (attempt >= MAX_ATTEMPTS || !code || !RETRYABLE.has(code)) throw error;
        }
      }
    },
    close: () => db.destroy(),
  };
}
