import { createHash } from 'node:crypto';
import { type Exit, runCli, type ServerProcess, spawnServe, tempDataDir } from '@payframe/server/process';
import pg from 'pg';
import { inject } from 'vitest';
import { parseFlags } from '../src/cli/args.ts';
import { withStore } from '../src/cli/open-store.ts';
import { loadConfig } from '../src/config.ts';
import { randomIds } from '../src/ids.ts';
import { openInProcess } from '../src/main.ts';
import { type CreatedKeys, createKeys as createApiKeys } from '../src/services/api-keys.ts';
import type { Store } from '../src/services/context.ts';
import { IN_PROCESS_ORIGIN, injectFetch } from './in-process.ts';

export { type Exit, tempDataDir };

/** Where a test sends its requests: a real process's URL and fetch, or an in-process server's. */
export type ApiTarget = { url: string; fetch: typeof fetch };

export type TestServer = ServerProcess & ApiTarget & { dataDir: string };

/** A server in this test's own process, reached through inject(): see startInProcess. */
export type InProcessTestServer = ApiTarget & { dataDir: string; stop(): Promise<void> };

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl?: string;
    postgresDatabasePrefix?: string;
  }
}

/** Provided by the `server-postgres` project's setup: the same API suite then runs against PostgreSQL. */
export const TEST_POSTGRES_URL: string | undefined = inject('postgresUrl');

/**
 * The flags that point a server or the CLI at the store of `dataDir`. With PostgreSQL, each data
 * directory gets its own fresh database (the directory still holds the master key file).
 */
export async function storeArgs(dataDir: string): Promise<string[]> {
  if (!TEST_POSTGRES_URL) return ['--data-dir', dataDir];
  return [
    '--data-dir',
    dataDir,
    '--database-url',
    await testDatabase(`${inject('postgresDatabasePrefix') ?? 'payframe_test_'}${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`),
  ];
}

async function testDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } catch (error) {
    // 42P04: it exists already, made for this data directory by an earlier call.
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES_URL ?? '');
  url.pathname = `/${name}`;
  return url.toString();
}

/** Starts `payframe serve` on the store of `dataDir` (a fresh one by default). */
export async function startServer(options: { dataDir?: string; args?: string[]; env?: Record<string, string> } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  const server = await spawnServe({ args: [...(await storeArgs(dataDir)), ...(options.args ?? [])], env: { ...process.env, ...options.env } });
  return { ...server, dataDir, fetch: globalThis.fetch };
}

/** The stores of the in-process servers of this test file, by data directory: see withStoreOf. */
const inProcessStores = new Map<string, Store>();

/** The store of the in-process server running on `dataDir`, if one is. */
export function inProcessStoreOf(dataDir: string): Store | undefined {
  return inProcessStores.get(dataDir);
}

/**
 * The same server as `payframe serve` on the same flags (store, config, background work), built in
 * this process and answering through fastify's inject(): for tests of what a request gets back,
 * where a process of its own proves nothing more. Its log is silent; tests that read the log, send
 * signals, crash or race processes start a real one with startServer.
 */
export async function startInProcess(options: { dataDir?: string; args?: string[]; env?: Record<string, string> } = {}): Promise<InProcessTestServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  const flags = parseFlags([...(await storeArgs(dataDir)), ...(options.args ?? [])], {}, { name: 'test server', positionals: 0 }).config;
  const server = await openInProcess(loadConfig(flags, { ...process.env, ...options.env }), IN_PROCESS_ORIGIN);
  inProcessStores.set(dataDir, server.store);
  return {
    url: IN_PROCESS_ORIGIN,
    fetch: injectFetch(server.app),
    dataDir,
    stop: async () => {
      inProcessStores.delete(dataDir);
      await server.close();
    },
  };
}

export type Keys = Omit<CreatedKeys, 'mode'>;

/**
 * A test's keys, made by the service `payframe keys create` calls, on the same store and config,
 * but in this process: a CLI process costs about a second of CPU, and the suite makes hundreds of
 * keys. The command itself is tested by cli.test.ts (and createKeysWithCli where a test is about it).
 */
export async function createKeys(dataDir: string, account: string, mode: 'test' | 'live' = 'test'): Promise<Keys> {
  const { mode: _mode, ...keys } = await withStoreOf(dataDir, (store) => createApiKeys(store, randomIds, account, mode, Date.now()));
  return keys;
}

let storeWork: Promise<unknown> = Promise.resolve();

/**
 * Runs `work` on the store of `dataDir`, opened as the CLI opens it: the same flags, config and
 * migrations. One at a time: better-sqlite3 waits for a lock by blocking this thread, so a second
 * connection of this process would wait for a lock the first could never release.
 */
export function withStoreOf<T>(dataDir: string, work: (store: Store) => Promise<T>): Promise<T> {
  // An in-process server's own connection: a second one in this thread could wait for its lock for ever.
  const running = inProcessStores.get(dataDir);
  if (running) return work(running);
  const done = storeWork.then(async () => withStore(loadConfig(parseFlags(await storeArgs(dataDir), {}, { name: 'test store', positionals: 0 }).config), work));
  storeWork = done.catch(() => undefined);
  return done;
}

/** Runs the real CLI, as an operator would. */
export async function createKeysWithCli(dataDir: string, account: string, mode: 'test' | 'live' = 'test'): Promise<Keys> {
  const { stdout } = await runCli(['keys', 'create', '--account', account, '--mode', mode, '--json', ...(await storeArgs(dataDir))]);
  return JSON.parse(stdout) as Keys;
}

export async function cli(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await runCli(args);
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}
