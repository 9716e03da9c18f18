/**
 * What a bench run deploys, and undoes on every exit path: a data directory, a throwaway
 * PostgreSQL database when asked, and the `payframe serve` instances on them (started with
 * `@payframe/server/process`, the helper the tests use too).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, runCli, type ServerProcess, spawnServe } from '@payframe/server/process';
import type { Options } from './options.ts';
import {
  type BenchDatabase,
  backendPids,
  createBenchDatabase,
  type DatabaseStats,
  dropBenchDatabase,
  postgresAdminUrl,
  readStats,
  sweepStaleDatabases,
} from './postgres.ts';
import { cpuMs } from './proc.ts';
import { QUERY_COUNTER_URL } from './query-log.ts';

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const CLI_TIMEOUT_MS = 60_000;

export const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** Undo steps, run last-registered first: servers stop before their database is dropped. */
const cleanups: Array<() => Promise<unknown>> = [];

export function onCleanup(undo: () => Promise<unknown>): void {
  cleanups.push(undo);
}

export async function cleanUp(): Promise<void> {
  for (let undo = cleanups.pop(); undo; undo = cleanups.pop()) {
    await undo().catch((error: unknown) => log(`cleanup: ${error instanceof Error ? error.message : String(error)}`));
  }
}

/** Set once aborting: the run still in flight then fails on vanished servers, which is no news. */
export let aborting = false;

/** Ctrl-C, SIGTERM or the time bound: clean up (itself bounded) and leave with `code`. */
export async function abort(reason: string, code: number): Promise<never> {
  aborting = true;
  log(`${reason}: stopping the servers and removing the database`);
  await Promise.race([cleanUp(), new Promise((resolve) => setTimeout(resolve, 20_000))]);
  process.exit(code);
}

// ---------------------------------------------------------------------------------------------
// The deployment: what every instance shares
// ---------------------------------------------------------------------------------------------

export type Deployment = {
  dataDir: string;
  database: BenchDatabase | null;
  /** The servers' and the CLI's environment: the shared master key, the pool size. */
  env: NodeJS.ProcessEnv;
  /** Statistics right after the database was made (zero, but read rather than assumed). */
  baseline: DatabaseStats | null;
};

export async function deploy(options: Options): Promise<Deployment> {
  const dataDir = mkdtempSync(join(tmpdir(), 'payframe-bench-'));
  onCleanup(async () => rmSync(dataDir, { recursive: true, force: true }));
  // An inherited DATABASE_URL would silently turn the SQLite run into a PostgreSQL one.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  // The tokens scenario creates tokens with the publishable key, as a checkout does: each request
  // is counted against the token limit, which is lifted so that it never refuses one.
  env.PAYFRAME_TOKEN_RATE_LIMIT = String(1_000_000_000);
  if (options.db === 'sqlite') return { dataDir, database: null, env, baseline: null };

  const adminUrl = await postgresAdminUrl(options.postgresUrl);
  const swept = await sweepStaleDatabases(adminUrl);
  if (swept.length > 0) log(`dropped databases left by killed runs: ${swept.join(', ')}`);
  const database = await createBenchDatabase(adminUrl);
  onCleanup(() => dropBenchDatabase(database));
  log(`database ${database.name} created`);
  // docs/operations.md "Deployment": every instance (and the CLI) must seal and sign with the same master key.
  env.PAYFRAME_MASTER_KEY = randomBytes(32).toString('base64');
  if (options.poolSize !== null) env.PAYFRAME_DB_POOL_SIZE = String(options.poolSize);
  return { dataDir, database, env, baseline: await readStats(database) };
}

export function storeFlags(deployment: Deployment): string[] {
  return ['--data-dir', deployment.dataDir, ...(deployment.database ? ['--database-url', deployment.database.url] : [])];
}

export const queryLogPath = (deployment: Deployment, index: number) => join(deployment.dataDir, `queries-${index}.json`);

export type BenchServer = ServerProcess & { index: number };

/**
 * The server logs "payframe ready" at info level, so with `--log-level warn` that line never
 * appears; the bench therefore picks a free port itself and takes whichever comes first: the
 * ready line, or the documented readiness probe `GET /healthz` answering 200.
 */
export async function startServer(deployment: Deployment, index: number, options: Options, bin: 'this' | 'against' = 'this'): Promise<BenchServer> {
  const port = await freePort(HOST);
  // One instance is profiled: the others run the same code, and each profile costs CPU on a small box.
  const profileFlags = options.profileDir && index === 0 ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : [];
  const counterFlags = options.countQueries ? ['--import', QUERY_COUNTER_URL] : [];
  const env = options.countQueries ? { ...deployment.env, PAYFRAME_BENCH_QUERY_LOG: queryLogPath(deployment, index) } : deployment.env;
  const server = await spawnServe({
    ...(options.against && bin === 'against' ? { bin: options.against } : {}),
    nodeArgs: [...profileFlags, ...counterFlags],
    args: [
      '--port',
      String(port),
      '--host',
      HOST,
      ...storeFlags(deployment),
      '--log-level',
      options.logLevel,
      '--request-log',
      options.requestLog === 'off' ? 'off' : 'on',
    ],
    env,
    healthUrl: `http://${HOST}:${port}`,
    readyTimeoutMs: READY_TIMEOUT_MS,
    // Only the head of the output: enough to explain a failure, bounded however chatty the log.
    maxOutputChars: 64_000,
  });
  onCleanup(() => stopServer(server));
  return { ...server, index };
}

/** SIGTERM lets the server close its pool (and write its profile); SIGKILL if it hangs doing so. */
export async function stopServer(server: ServerProcess): Promise<number | null> {
  return (await server.stop('SIGTERM', STOP_TIMEOUT_MS)).code;
}

/**
 * Runs the real CLI, as an operator would, against the servers' data directory and database: the
 * servers' own build (`bin`, for `--against`), whose migrations are the store's. This build's CLI
 * would migrate another build's store to this build's schema under its running server.
 */
export async function createTestKeys(deployment: Deployment, bin?: string): Promise<{ secretKey: string; publishableKey: string }> {
  const args = ['keys', 'create', '--account', 'bench', '--mode', 'test', '--json', ...storeFlags(deployment)];
  const { stdout } = await runCli(args, { env: deployment.env, timeoutMs: CLI_TIMEOUT_MS, ...(bin ? { bin } : {}) });
  return JSON.parse(stdout) as { secretKey: string; publishableKey: string };
}

/** CPU of the database's backends by pid: the servers' connections are where the queries run. */
export async function backendCpu(database: BenchDatabase): Promise<Map<number, number>> {
  const pids = await backendPids(database);
  return new Map(pids.flatMap((pid) => (cpuMs(pid) === null ? [] : [[pid, cpuMs(pid) ?? 0] as const])));
}

/** A backend that started during the run counts from zero; one that ended during it is lost (rare: pools keep theirs). */
export function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}
