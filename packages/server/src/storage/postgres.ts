import { Kysely, type PostgresCursor, PostgresDialect, type PostgresPool, type PostgresQueryResult } from 'kysely';
import pg from 'pg';
import type { Connection } from './db.ts';
import { migrate } from './migrate.ts';
import { clientForHosts, type HostClient, HostSelector, parseHostList, verifySession } from './postgres-hosts.ts';
import type { Database } from './schema.ts';
import { preparedName } from './statements.ts';
import { retryingTransient } from './transient.ts';
import { isStoreUnavailable } from './unavailable.ts';

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

/** PostgreSQL for scale-out: any number of stateless instances share it. */
export async function openPostgresStore(options: PostgresOptions): Promise<Connection> {
  const hostList = parseHostList(options.url);
  const selector = hostList ? new HostSelector(hostList) : null;
  const pool = new pg.Pool({
    ...(selector ? { Client: clientForHosts(selector), verify: verifySession(selector) } : { connectionString: options.url }),
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
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool, selector) }) });
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // Each statement commits alone, durable by PostgreSQL's own commit: no write waits for less.
  const write: Connection['write'] = (work) => work(db);
  return {
    db,
    transaction: (work) => retryingTransient(() => db.transaction().execute(work)),
    write,
    writeUnwaited: write,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  };
}

/** Kysely's pool, running the hot statements (storage/statements.ts) as named prepared statements. */
function withPreparedStatements(pool: pg.Pool, selector: HostSelector | null): PostgresPool {
  return {
    async connect() {
      const client = await connectToSomeHost(pool, selector);
      // Set by a failure that says the connection is dead or on the wrong host: released with it, the
      // pool discards the connection instead of lending it again (a pooled connection to a primary
      // demoted by a failover would otherwise fail every request given it).
      let broken: Error | undefined;
      const watch = <T>(running: Promise<T>): Promise<T> =>
        running.catch((error: unknown) => {
          // A statement timeout or a full server is no reason to leave the host or the connection.
          const code = (error as { code?: unknown }).code;
          if (isStoreUnavailable(error) && code !== '57014' && code !== '53300') {
            broken = error as Error;
            selector?.failed((client as unknown as HostClient).hostIndex);
          }
          throw error;
        });
      // Kysely passes a text with its parameters, or a cursor (streamed reads) which goes through as is.
      function query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
      function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
      function query(sql: string | PostgresCursor<unknown>, values?: readonly unknown[]): unknown {
        if (typeof sql !== 'string') return client.query(sql as unknown as pg.Submittable);
        const name = preparedName(sql);
        return watch(client.query({ text: sql, values: values ? [...values] : [], ...(name ? { name } : {}) }));
      }
      return {
        query,
        release: () => client.release(broken),
      };
    },
    end: () => pool.end(),
  };
}

/**
 * A connection from the pool; with several hosts, each host in turn until one serves a suitable
 * session (a refused connection or a standby moves the selector on), so one request rides out a
 * failover that has already happened instead of meeting the old primary's corpse.
 */
async function connectToSomeHost(pool: pg.Pool, selector: HostSelector | null): Promise<pg.PoolClient> {
  const attempts = selector?.hostCount ?? 1;
  for (let attempt = 1; ; attempt++) {
    const host = selector?.current ?? 0;
    try {
      return await pool.connect();
    } catch (error) {
      if (attempt >= attempts || !isStoreUnavailable(error)) throw error;
      selector?.failed(host);
    }
  }
}
