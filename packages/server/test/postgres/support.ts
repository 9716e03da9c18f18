import pg from 'pg';
import { type Client, client } from '../client.ts';
import { createKeys, startServer, storeArgs, TEST_POSTGRES_URL, type TestServer } from '../harness.ts';

/** These tests need several processes on one shared database: they belong to the PostgreSQL project only. */
export function requirePostgres(): string {
  if (!TEST_POSTGRES_URL) throw new Error('test/postgres/ runs only in the server-postgres project (no TEST_POSTGRES_URL was provided)');
  return TEST_POSTGRES_URL;
}

/** The database URL of a data directory's store, as `storeArgs` hands it to the server (it creates the database on first use). */
export async function databaseUrlOf(dataDir: string): Promise<string> {
  requirePostgres();
  const args = await storeArgs(dataDir);
  const url = args[args.indexOf('--database-url') + 1];
  if (!args.includes('--database-url') || !url) throw new Error(`storeArgs gave no --database-url: ${JSON.stringify(args)}`);
  return url;
}

/** Runs `work` with a plain pg client on `url` and always closes it. */
export async function withDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Two instances on one database, each sweeping every `sweepIntervalMs`, and a secret-key client for each. */
export async function sweepingPair(account: string, sweepIntervalMs: number): Promise<{ first: TestServer; second: TestServer; apis: Client[] }> {
  requirePostgres();
  const env = { PAYFRAME_SWEEP_INTERVAL_MS: String(sweepIntervalMs) };
  const first = await startServer({ env });
  const second = await startServer({ env, dataDir: first.dataDir });
  const keys = await createKeys(first.dataDir, account);
  return { first, second, apis: [first, second].map((server) => client(server.url, keys.secretKey)) };
}
