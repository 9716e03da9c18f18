/**
 * `npm run bench`: N concurrent shoppers each looping token → charge → capture against real
 * `payframe serve` processes on a fresh database, for a fixed time.
 *
 *   npm run bench -- [--concurrency 32] [--seconds 15] [--warmup 2] [--json]
 *                    [--log-level warn] [--profile] [--profile-dir DIR]
 *                    [--db sqlite|postgres] [--instances 1] [--postgres-url URL] [--pool-size N]
 *                    [--count-queries] [--matrix]
 *
 * --db sqlite (default): one server on the embedded store. --db postgres: a throwaway database
 * (dropped at the end), N instances sharing it and one master key, requests alternating between
 * the instances; per-flow query counts from PostgreSQL's statistics. --count-queries adds exact
 * per-statement counts measured inside the servers. --matrix: see compare.ts.
 *
 * Loopback only, bounded in time (and in errors); servers and database are removed on every exit
 * path, Ctrl-C included. The load generator shares the box with the servers, so it stays cheap:
 * node:http with keep-alive sockets, request bodies encoded once, responses parsed only for the id
 * the next step needs.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, mkdtempSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { type ProfileSummary, formatProfileSummary, summarizeProfile } from './cpu-profile.ts';
import { boxBusyMs, cpuMs, procStatusMb, sampleRss } from './proc.ts';
import {
  type BenchDatabase,
  type DatabaseStats,
  type QueryCounts,
  backendPids,
  createBenchDatabase,
  dropBenchDatabase,
  formatQueryCounts,
  postgresAdminUrl,
  queryCountsPerFlow,
  readStats,
  sweepStaleDatabases,
  waitForNoBackends,
} from './postgres.ts';
import { type StatementCounts, QUERY_COUNTER_URL, formatStatementCounts, readQueryLogs } from './query-log.ts';

const BIN = fileURLToPath(new URL('../bin/payframe.js', import.meta.url));
const HOST = '127.0.0.1';

/**
 * The targets the figures are judged against (per-flow p99 is defined at 32 concurrent flows; the
 * PostgreSQL throughput target at one instance, the issue's measure of the per-request overhead).
 */
const TARGETS = { flowsPerSecond: { sqlite: 500, postgres: 600 }, p99Ms: 50, rssMb: 200, atConcurrency: 32, postgresAtInstances: 1 } as const;

/** Past this many errors the server is broken, not slow: stop instead of spinning on failures. */
const MAX_ERRORS = 1_000;
const REQUEST_TIMEOUT_MS = 10_000;
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const CLI_TIMEOUT_MS = 60_000;
/** Beyond warm-up and run: boot, the key, stopping, statistics, dropping the database. */
const OVERHEAD_BUDGET_S = 180;

type Store = 'sqlite' | 'postgres';

type Options = {
  concurrency: number;
  seconds: number;
  warmupSeconds: number;
  json: boolean;
  logLevel: string;
  profileDir: string | null;
  db: Store;
  instances: number;
  postgresUrl: string | null;
  poolSize: number | null;
  countQueries: boolean;
  matrix: boolean;
};

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      concurrency: { type: 'string', default: '32' },
      seconds: { type: 'string', default: '15' },
      warmup: { type: 'string', default: '2' },
      json: { type: 'boolean', default: false },
      'log-level': { type: 'string', default: 'warn' },
      profile: { type: 'boolean', default: false },
      'profile-dir': { type: 'string' },
      db: { type: 'string', default: 'sqlite' },
      instances: { type: 'string', default: '1' },
      'postgres-url': { type: 'string' },
      'pool-size': { type: 'string' },
      'count-queries': { type: 'boolean', default: false },
      matrix: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.db !== 'sqlite' && values.db !== 'postgres') throw new Error('--db must be sqlite or postgres');
  const instances = positiveNumber('instances', values.instances, 1, 8);
  // The embedded store is one process's file: several instances on it is not a supported deployment.
  if (values.db === 'sqlite' && instances > 1 && !values.matrix) throw new Error('--instances above 1 needs --db postgres');
  if (values.db === 'sqlite' && values['count-queries']) throw new Error('--count-queries needs --db postgres');
  const profileDir = values['profile-dir'] ?? (values.profile ? mkdtempSync(join(tmpdir(), 'payframe-prof-')) : null);
  return {
    concurrency: positiveNumber('concurrency', values.concurrency, 1, 1_024),
    seconds: positiveNumber('seconds', values.seconds, 1, 600),
    warmupSeconds: positiveNumber('warmup', values.warmup, 0, 60),
    json: values.json,
    logLevel: values['log-level'],
    profileDir,
    db: values.db,
    instances,
    postgresUrl: values['postgres-url'] ?? null,
    poolSize: values['pool-size'] === undefined ? null : positiveNumber('pool-size', values['pool-size'], 1, 200),
    countQueries: values['count-queries'],
    matrix: values.matrix,
  };
}

function positiveNumber(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Cleanup: whatever the run made is undone on every exit path
// ---------------------------------------------------------------------------------------------

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** Undo steps, run last-registered first: servers stop before their database is dropped. */
const cleanups: Array<() => Promise<unknown>> = [];

function onCleanup(undo: () => Promise<unknown>): void {
  cleanups.push(undo);
}

async function cleanUp(): Promise<void> {
  for (let undo = cleanups.pop(); undo; undo = cleanups.pop()) {
    await undo().catch((error: unknown) => log(`cleanup: ${error instanceof Error ? error.message : String(error)}`));
  }
}

/** Set once aborting: the run still in flight then fails on vanished servers, which is no news. */
let aborting = false;

/** Ctrl-C, SIGTERM or the time bound: clean up (itself bounded) and leave with `code`. */
async function abort(reason: string, code: number): Promise<never> {
  aborting = true;
  log(`${reason}: stopping the servers and removing the database`);
  await Promise.race([cleanUp(), new Promise((resolve) => setTimeout(resolve, 20_000))]);
  process.exit(code);
}

// ---------------------------------------------------------------------------------------------
// The deployment: what every instance shares
// ---------------------------------------------------------------------------------------------

type Deployment = {
  dataDir: string;
  database: BenchDatabase | null;
  /** The servers' and the CLI's environment: the shared master key, the pool size. */
  env: NodeJS.ProcessEnv;
  /** Statistics right after the database was made (zero, but read rather than assumed). */
  baseline: DatabaseStats | null;
};

async function deploy(options: Options): Promise<Deployment> {
  const dataDir = mkdtempSync(join(tmpdir(), 'payframe-bench-'));
  onCleanup(async () => rmSync(dataDir, { recursive: true, force: true }));
  // An inherited DATABASE_URL would silently turn the SQLite run into a PostgreSQL one.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  if (options.db === 'sqlite') return { dataDir, database: null, env, baseline: null };

  const adminUrl = await postgresAdminUrl(options.postgresUrl);
  const swept = await sweepStaleDatabases(adminUrl);
  if (swept.length > 0) log(`dropped databases left by killed runs: ${swept.join(', ')}`);
  const database = await createBenchDatabase(adminUrl);
  onCleanup(() => dropBenchDatabase(database));
  log(`database ${database.name} created`);
  // README "Deployment": every instance (and the CLI) must seal and sign with the same master key.
  env.PAYFRAME_MASTER_KEY = randomBytes(32).toString('base64');
  if (options.poolSize !== null) env.PAYFRAME_DB_POOL_SIZE = String(options.poolSize);
  return { dataDir, database, env, baseline: await readStats(database) };
}

function storeFlags(deployment: Deployment): string[] {
  return ['--data-dir', deployment.dataDir, ...(deployment.database ? ['--database-url', deployment.database.url] : [])];
}

const queryLogPath = (deployment: Deployment, index: number) => join(deployment.dataDir, `queries-${index}.json`);

// ---------------------------------------------------------------------------------------------
// The server processes
// ---------------------------------------------------------------------------------------------

type ServerProcess = {
  index: number;
  child: ChildProcess;
  pid: number;
  url: string;
  output(): string;
};

/**
 * The server logs "payframe ready" at info level, so with `--log-level warn` that line never
 * appears; the bench therefore picks a free port itself and takes whichever comes first: the
 * ready line, or the documented readiness probe `GET /healthz` answering 200.
 */
async function startServer(deployment: Deployment, index: number, options: Options): Promise<ServerProcess> {
  const port = await freePort();
  // One instance is profiled: the others run the same code, and each profile costs CPU on a small box.
  const profileFlags = options.profileDir && index === 0 ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : [];
  const counterFlags = options.countQueries ? ['--import', QUERY_COUNTER_URL] : [];
  const args = [...profileFlags, ...counterFlags, BIN, 'serve', '--port', String(port), '--host', HOST, ...storeFlags(deployment), '--log-level', options.logLevel];
  const env = options.countQueries ? { ...deployment.env, PAYFRAME_BENCH_QUERY_LOG: queryLogPath(deployment, index) } : deployment.env;
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  if (child.pid === undefined) throw new Error('could not spawn the server');
  onCleanup(() => stopChild(child));

  // Keep only the head of the output: enough to explain a failure, bounded however chatty the log.
  let output = '';
  const keep = (chunk: string) => {
    if (output.length < 64_000) output += chunk;
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);

  const url = await waitUntilReady(child, `http://${HOST}:${port}`, () => output);
  return { index, child, pid: child.pid, url, output: () => output };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function waitUntilReady(child: ChildProcess, url: string, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error: Error | null, readyUrl = url) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      child.stdout?.off('data', onLine);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(readyUrl);
    };
    const onLine = () => {
      const line = output()
        .split('\n')
        .find((text) => text.includes('"payframe ready"'));
      if (line) settle(null, (JSON.parse(line) as { url: string }).url);
    };
    const onExit = (code: number | null) => settle(new Error(`server exited (${code}) before it was ready:\n${output()}`));
    const deadline = setTimeout(() => settle(new Error(`server not ready after ${READY_TIMEOUT_MS} ms:\n${output()}`)), READY_TIMEOUT_MS);

    child.stdout?.on('data', onLine);
    child.once('exit', onExit);
    // Connection refused is immediate while the server boots, so probe at a short, fixed interval.
    const probe = () => {
      if (settled) return;
      healthy(url).then((ok) => (ok ? settle(null) : setTimeout(probe, 20)));
    };
    probe();
  });
}

function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(`${url}/healthz`, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.setTimeout(1_000, () => request.destroy());
    request.once('error', () => resolve(false));
  });
}

/** SIGTERM lets the server close its pool (and write its profile); SIGKILL if it hangs doing so. */
function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(kill);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}

/** Runs the real CLI, as an operator would, against the servers' data directory and database. */
async function createTestKey(deployment: Deployment): Promise<string> {
  const run = promisify(execFile);
  const args = [BIN, 'keys', 'create', '--account', 'bench', '--mode', 'test', '--json', ...storeFlags(deployment)];
  const { stdout } = await run(process.execPath, args, { env: deployment.env, timeout: CLI_TIMEOUT_MS });
  return (JSON.parse(stdout) as { secretKey: string }).secretKey;
}

// ---------------------------------------------------------------------------------------------
// CPU of the database's backends (the servers' own memory and CPU: proc.ts)
// ---------------------------------------------------------------------------------------------

/** CPU of the database's backends by pid: the servers' connections are where the queries run. */
async function backendCpu(database: BenchDatabase): Promise<Map<number, number>> {
  const pids = await backendPids(database);
  return new Map(pids.flatMap((pid) => (cpuMs(pid) === null ? [] : [[pid, cpuMs(pid) ?? 0] as const])));
}

/** A backend that started during the run counts from zero; one that ended during it is lost (rare: pools keep theirs). */
function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

// ---------------------------------------------------------------------------------------------
// HTTP: keep-alive node:http, form bodies encoded once
// ---------------------------------------------------------------------------------------------

type Reply = { status: number; body: string };

function apiClient(baseUrl: string, apiKey: string, concurrency: number) {
  const { hostname, port } = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

  function post(path: string, form?: string): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const headers: http.OutgoingHttpHeaders = { 'x-api-key': apiKey, 'content-length': form ? Buffer.byteLength(form) : 0 };
      if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
      const request = http.request({ agent, hostname, port, method: 'POST', path, headers }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', reject);
      });
      request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error(`no response within ${REQUEST_TIMEOUT_MS} ms`)));
      request.once('error', reject);
      request.end(form);
    });
  }
  return { post, close: () => agent.destroy() };
}
type ApiClient = ReturnType<typeof apiClient>;

/** The frictionless test card (3-D Secure NOT_AVAILABLE), so a charge can be captured at once. */
const TOKEN_FORM = new URLSearchParams({
  'card[number]': '4242424242424242',
  'card[cvc]': '123',
  'card[exp_month]': '12',
  'card[exp_year]': String(new Date().getUTCFullYear() + 3),
  'card[name]': 'Ada Lovelace',
  'shopper[ip]': '203.0.113.7',
  'shopper[session_id]': 'bench-session',
  'shopper[email]': 'ada@example.com',
}).toString();

function chargeForm(token: string): string {
  return new URLSearchParams({
    token,
    amount: '500',
    currency: 'eur',
    description: 'Bench order',
    return_url: 'https://shop.example/return',
  }).toString();
}

// ---------------------------------------------------------------------------------------------
// The load: workers looping token → charge → capture until the deadline
// ---------------------------------------------------------------------------------------------

const ENDPOINTS = ['POST /v2/tokens', 'POST /v2/charges', 'POST /v2/charges/capture/:id'] as const;
type Endpoint = (typeof ENDPOINTS)[number];

/** Everything one run records; latencies in milliseconds. */
type Recorder = {
  flows: number[];
  endpoints: Record<Endpoint, number[]>;
  /** By instance: every request's latency, and its failures. */
  instances: { latencies: number[]; errors: number }[];
  errors: number;
  firstError: string | null;
};

function newRecorder(instances: number): Recorder {
  const endpoints = Object.fromEntries(ENDPOINTS.map((endpoint) => [endpoint, []])) as unknown as Recorder['endpoints'];
  return { flows: [], endpoints, instances: Array.from({ length: instances }, () => ({ latencies: [], errors: 0 })), errors: 0, firstError: null };
}

class StepFailed extends Error {}

/** Which instance a request goes to. */
type Target = { instance: number; api: ApiClient };

/**
 * Worker w sends its k-th request to instance (w + k) mod N: every instance gets the same share,
 * and consecutive steps of a flow land on different instances (a charge made on one is captured
 * on another), so nothing can lean on per-process state.
 */
function roundRobin(apis: ApiClient[], worker: number): () => Target {
  let sent = worker;
  return () => {
    const instance = sent++ % apis.length;
    const api = apis[instance];
    if (!api) throw new Error(`no client for instance ${instance}`);
    return { instance, api };
  };
}

/** One request, timed; anything but a 200 fails the flow. */
async function step(record: Recorder, endpoint: Endpoint, target: Target, send: (api: ApiClient) => Promise<Reply>): Promise<string> {
  const started = performance.now();
  const reply = await send(target.api).catch((error: Error) => ({ status: 0, body: `network error: ${error.message}` }));
  const elapsed = performance.now() - started;
  const instance = record.instances[target.instance];
  record.endpoints[endpoint].push(elapsed);
  instance?.latencies.push(elapsed);
  if (reply.status !== 200) {
    record.errors += 1;
    if (instance) instance.errors += 1;
    record.firstError ??= `${endpoint} on instance ${target.instance + 1} → ${reply.status} ${reply.body}`;
    throw new StepFailed();
  }
  return reply.body;
}

const idOf = (body: string) => (JSON.parse(body) as { id: string }).id;

async function oneFlow(next: () => Target, record: Recorder): Promise<void> {
  const started = performance.now();
  try {
    const token = idOf(await step(record, 'POST /v2/tokens', next(), (api) => api.post('/v2/tokens', TOKEN_FORM)));
    const charge = idOf(await step(record, 'POST /v2/charges', next(), (api) => api.post('/v2/charges', chargeForm(token))));
    await step(record, 'POST /v2/charges/capture/:id', next(), (api) => api.post(`/v2/charges/capture/${encodeURIComponent(charge)}`));
    record.flows.push(performance.now() - started);
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
  }
}

/** A finished run; startedAt/endedAt are process.hrtime (ns), to cut the server's CPU profile to it. */
type Run = { record: Recorder; elapsedS: number; startedAt: bigint; endedAt: bigint };

/** Runs `concurrency` workers for `seconds`; a flow started before the deadline is let finish. */
async function drive(apis: ApiClient[], concurrency: number, seconds: number): Promise<Run> {
  const record = newRecorder(apis.length);
  const startedAt = process.hrtime.bigint();
  const started = performance.now();
  const until = started + seconds * 1_000;
  const worker = async (_: unknown, index: number) => {
    const next = roundRobin(apis, index);
    while (performance.now() < until && record.errors < MAX_ERRORS) await oneFlow(next, record);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { record, elapsedS: (performance.now() - started) / 1_000, startedAt, endedAt: process.hrtime.bigint() };
}

// ---------------------------------------------------------------------------------------------
// Figures and report
// ---------------------------------------------------------------------------------------------

type Latency = { p50: number; p90: number; p99: number; max: number; count: number };

/** Nearest-rank percentiles over the whole sample: the runs are small enough to keep every value. */
function latency(values: number[]): Latency {
  const sorted = Float64Array.from(values).sort();
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return { p50: round(rank(50)), p90: round(rank(90)), p99: round(rank(99)), max: round(sorted[sorted.length - 1] ?? NaN), count: sorted.length };
}

type InstanceFigures = {
  pid: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: Latency;
  errors: number;
  peakRssMb: number | null;
  maxSampledRssMb: number | null;
  readyRssMb: number | null;
  cpuPercent: number | null;
  exitCode: number | null;
};

type PostgresFigures = {
  database: string;
  /** Connections per instance; null: the server's default (10). */
  poolSize: number | null;
  backendCpuPercent: number | null;
  backendCpuMsPerFlow: number | null;
  queriesPerFlow: QueryCounts | null;
  statements?: StatementCounts | undefined;
};

export type Figures = {
  node: string;
  db: Store;
  concurrency: number;
  durationS: number;
  warmupS: number;
  flows: number;
  flowsPerSecond: number;
  requests: number;
  requestsPerSecond: number;
  flowLatencyMs: Latency;
  endpointLatencyMs: Record<Endpoint, Latency>;
  errors: number;
  firstError: string | null;
  instances: InstanceFigures[];
  /** Largest over the instances. */
  serverPeakRssMb: number | null;
  serverMaxSampledRssMb: number | null;
  /** Before any load: what boot (loading every module) costs on its own. */
  serverReadyRssMb: number | null;
  /** CPU used during the measured run, in % of one core, summed over instances: the box is shared, so these explain the rest. */
  serverCpuPercent: number | null;
  serverCpuMsPerFlow: number | null;
  benchCpuPercent: number;
  /** CPU the rest of the box used during the run (other people's tests on a shared machine), % of a core. */
  othersCpuPercent: number | null;
  loadAverage1m: number;
  postgres?: PostgresFigures | undefined;
  targets: Record<'flowsPerSecond' | 'p99' | 'rss', { target: string; pass: boolean }>;
  profile?: ProfileSummary | undefined;
};

type InstanceMachine = { pid: number; readyRssMb: number | null; peakRssMb: number | null; maxSampledRssMb: number | null; cpuMs: number | null; exitCode: number | null };
type Machine = { instances: InstanceMachine[]; benchCpuMs: number; backendCpuMs: number | null; boxBusyMs: number | null; loadAverage1m: number };

const round1 = (value: number) => Math.round(value * 10) / 10;
const round1OrNull = (value: number | null) => (value === null ? null : round1(value));
const sumOrNull = (values: (number | null)[]) => (values.includes(null) ? null : values.reduce<number>((sum, value) => sum + (value ?? 0), 0));
const maxOrNull = (values: (number | null)[]) => (values.includes(null) ? null : Math.max(...values.map((value) => value ?? 0)));
const percentOfCore = (ms: number | null, elapsedS: number) => (ms === null ? null : round1(ms / (10 * elapsedS)));
const msPerFlow = (ms: number | null, flows: number) => (ms === null || flows === 0 ? null : Math.round((100 * ms) / flows) / 100);

function instanceFigures(run: Run, machine: InstanceMachine, index: number): InstanceFigures {
  const recorded = run.record.instances[index] ?? { latencies: [], errors: 0 };
  return {
    pid: machine.pid,
    requests: recorded.latencies.length,
    requestsPerSecond: round1(recorded.latencies.length / run.elapsedS),
    latencyMs: latency(recorded.latencies),
    errors: recorded.errors,
    peakRssMb: round1OrNull(machine.peakRssMb),
    maxSampledRssMb: round1OrNull(machine.maxSampledRssMb),
    readyRssMb: round1OrNull(machine.readyRssMb),
    cpuPercent: percentOfCore(machine.cpuMs, run.elapsedS),
    exitCode: machine.exitCode,
  };
}

function figuresOf(run: Run, options: Options, machine: Machine): Figures {
  const { record, elapsedS } = run;
  const requests = ENDPOINTS.reduce((sum, endpoint) => sum + record.endpoints[endpoint].length, 0);
  const flowLatencyMs = latency(record.flows);
  const flowsPerSecond = round1(record.flows.length / elapsedS);
  const instances = machine.instances.map((instance, index) => instanceFigures(run, instance, index));
  const serverCpuMs = sumOrNull(machine.instances.map((instance) => instance.cpuMs));
  const peakRssMb = maxOrNull(instances.map((instance) => instance.peakRssMb));
  return {
    node: process.version,
    db: options.db,
    concurrency: options.concurrency,
    durationS: round1(elapsedS),
    warmupS: options.warmupSeconds,
    flows: record.flows.length,
    flowsPerSecond,
    requests,
    requestsPerSecond: round1(requests / elapsedS),
    flowLatencyMs,
    endpointLatencyMs: Object.fromEntries(ENDPOINTS.map((endpoint) => [endpoint, latency(record.endpoints[endpoint])])) as Record<Endpoint, Latency>,
    errors: record.errors,
    firstError: record.firstError,
    instances,
    serverPeakRssMb: peakRssMb,
    serverMaxSampledRssMb: maxOrNull(instances.map((instance) => instance.maxSampledRssMb)),
    serverReadyRssMb: maxOrNull(instances.map((instance) => instance.readyRssMb)),
    serverCpuPercent: percentOfCore(serverCpuMs, elapsedS),
    serverCpuMsPerFlow: msPerFlow(serverCpuMs, record.flows.length),
    benchCpuPercent: round1(machine.benchCpuMs / (10 * elapsedS)),
    othersCpuPercent: percentOfCore(othersCpuMs(machine, serverCpuMs), elapsedS),
    loadAverage1m: round1(machine.loadAverage1m),
    targets: targetsOf(options, flowsPerSecond, flowLatencyMs, peakRssMb),
  };
}

/** Box busy time minus ours (servers, their backends, the load generator); null when any part is unknown. */
function othersCpuMs(machine: Machine, serverCpuMs: number | null): number | null {
  if (machine.boxBusyMs === null || serverCpuMs === null) return null;
  return Math.max(0, machine.boxBusyMs - serverCpuMs - (machine.backendCpuMs ?? 0) - machine.benchCpuMs);
}

function targetsOf(options: Options, flowsPerSecond: number, flowLatencyMs: Latency, peakRssMb: number | null): Figures['targets'] {
  const at = options.concurrency === TARGETS.atConcurrency ? '' : ` (defined at ${TARGETS.atConcurrency} concurrent flows)`;
  const flowsTarget = TARGETS.flowsPerSecond[options.db];
  const flowsNote =
    options.db === 'postgres' ? ` on PostgreSQL${options.instances === TARGETS.postgresAtInstances ? '' : ` (defined for ${TARGETS.postgresAtInstances} instance)`}` : '';
  return {
    flowsPerSecond: { target: `≥ ${flowsTarget} flows/s${flowsNote}`, pass: flowsPerSecond >= flowsTarget },
    p99: { target: `flow p99 < ${TARGETS.p99Ms} ms${at}`, pass: flowLatencyMs.p99 < TARGETS.p99Ms },
    rss: { target: `peak RSS < ${TARGETS.rssMb} MB on every instance`, pass: peakRssMb !== null && peakRssMb < TARGETS.rssMb },
  };
}

const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(1)} ms`);
const mb = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(1)} MB`);

function formatInstance(instance: InstanceFigures, index: number): string {
  const { p50, p99 } = instance.latencyMs;
  return (
    `  instance ${index + 1}     pid ${instance.pid}  ${instance.requests} requests (${instance.requestsPerSecond}/s)  p50 ${ms(p50)}  p99 ${ms(p99)}  ` +
    `errors ${instance.errors}  RSS peak ${mb(instance.peakRssMb)} (sampled ${mb(instance.maxSampledRssMb)}, at ready ${mb(instance.readyRssMb)})  ` +
    `CPU ${instance.cpuPercent ?? 'n/a'} %${instance.exitCode ? `  exit code ${instance.exitCode}` : ''}`
  );
}

function formatStore(figures: Figures): string {
  const { postgres } = figures;
  if (!postgres) return '  store          embedded SQLite, one instance';
  const spread = figures.instances.length > 1 ? ', requests alternate between instances (a flow’s steps land on different ones)' : '';
  return `  store          PostgreSQL (database ${postgres.database}, pool ${postgres.poolSize ?? 'default 10'} per instance), ${figures.instances.length} instance(s)${spread}`;
}

function formatCpu(figures: Figures): string {
  const backends = figures.postgres ? `, PostgreSQL backends ${figures.postgres.backendCpuPercent ?? 'n/a'} % (${figures.postgres.backendCpuMsPerFlow ?? 'n/a'} ms per flow)` : '';
  return (
    `  CPU            servers ${figures.serverCpuPercent ?? 'n/a'} % of a core (${figures.serverCpuMsPerFlow ?? 'n/a'} ms per flow)${backends}, ` +
    `load generator ${figures.benchCpuPercent} %, other processes ${figures.othersCpuPercent ?? 'n/a'} %; ` +
    `1-min load average before the bench ${figures.loadAverage1m}`
  );
}

function formatReport(figures: Figures): string {
  const mark = (pass: boolean) => (pass ? 'PASS' : 'MISS');
  const lines = [
    `Payframe bench: token → charge → capture, ${figures.concurrency} concurrent flows, ${figures.durationS} s (after ${figures.warmupS} s warm-up), Node ${figures.node}`,
    '',
    formatStore(figures),
    `  flows/s        ${figures.flowsPerSecond}  (${figures.flows} flows)`,
    `  requests/s     ${figures.requestsPerSecond}  (${figures.requests} requests)`,
    `  flow latency   p50 ${ms(figures.flowLatencyMs.p50)}  p90 ${ms(figures.flowLatencyMs.p90)}  p99 ${ms(figures.flowLatencyMs.p99)}  max ${ms(figures.flowLatencyMs.max)}`,
    ...ENDPOINTS.map((endpoint) => {
      const { p50, p99 } = figures.endpointLatencyMs[endpoint];
      return `  ${endpoint.padEnd(30)} p50 ${ms(p50)}  p99 ${ms(p99)}`;
    }),
    `  errors         ${figures.errors}${figures.errors >= MAX_ERRORS ? ' (stopped early: the server is failing, not slow)' : ''}` +
      `${figures.firstError ? `  first: ${figures.firstError.slice(0, 500)}` : ''}`,
    ...figures.instances.map(formatInstance),
    formatCpu(figures),
    ...(figures.postgres?.queriesPerFlow ? formatQueryCounts(figures.postgres.queriesPerFlow) : []),
    ...(figures.postgres?.statements ? formatStatementCounts(figures.postgres.statements) : []),
    '',
    '  targets',
    ...Object.values(figures.targets).map(({ target, pass }) => `    ${mark(pass)}  ${target}`),
  ];
  if (figures.profile) lines.push('', formatProfileSummary(figures.profile));
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const options = parseOptions(argv);
  if (options.matrix) {
    const { runMatrix } = await import('./compare.ts');
    return runMatrix(argv.filter((arg) => arg !== '--matrix'));
  }
  // Taken before our own load starts: it says how busy the shared box already was.
  const loadAverage1m = loadavg()[0] ?? 0;
  const bound = options.warmupSeconds + options.seconds + OVERHEAD_BUDGET_S;
  const watchdog = setTimeout(() => void abort(`no result after ${bound} s`, 2), bound * 1_000);
  process.once('SIGINT', () => void abort('interrupted', 130));
  process.once('SIGTERM', () => void abort('terminated', 143));
  try {
    const figures = await benchmark(options, loadAverage1m);
    console.log(options.json ? JSON.stringify(figures) : formatReport(figures));
    if (figures.errors > 0) process.exitCode = 1;
  } finally {
    clearTimeout(watchdog);
    await cleanUp();
  }
}

/** Deploy → start the instances → key, warm-up, measured run → stop them → read the figures out. */
async function benchmark(options: Options, loadAverage1m: number): Promise<Figures> {
  if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });
  const deployment = await deploy(options);
  const servers = await Promise.all(Array.from({ length: options.instances }, (_, index) => startServer(deployment, index, options)));
  for (const server of servers) log(`instance ${server.index + 1}: pid ${server.pid} ready at ${server.url}`);
  const measured = await measure(servers, deployment, options);

  // Stopped before reading out: the CPU profile and the query logs are written at exit, and
  // PostgreSQL backends flush their statistics when their connection closes.
  const exitCodes = await Promise.all(servers.map((server) => stopChild(server.child)));
  servers.forEach((server, index) => {
    if (exitCodes[index] !== 0) log(`instance ${index + 1} exited with ${exitCodes[index]}:\n${server.output().slice(-4_000)}`);
  });
  const instances = measured.instances.map((instance, index) => ({ ...instance, exitCode: exitCodes[index] ?? null }));
  const figures = figuresOf(measured.run, options, { ...measured, instances, loadAverage1m });
  if (deployment.database) figures.postgres = await postgresFigures(deployment, measured, options);
  const profiled = servers[0];
  if (options.profileDir && profiled) figures.profile = loadProfile(options.profileDir, profiled.pid, measured.run.startedAt, measured.run.endedAt);
  return figures;
}

type Measured = {
  run: Run;
  warmupFlows: number;
  instances: Omit<InstanceMachine, 'exitCode'>[];
  benchCpuMs: number;
  backendCpuMs: number | null;
  boxBusyMs: number | null;
};

/** Key → warm-up → measured run, with the servers' (and backends') memory and CPU read around the measured part. */
async function measure(servers: ServerProcess[], deployment: Deployment, options: Options): Promise<Measured> {
  const readyRssMb = servers.map((server) => procStatusMb(server.pid, 'VmRSS'));
  const key = await createTestKey(deployment);
  const apis = servers.map((server) => apiClient(server.url, key, options.concurrency));
  const samplers = servers.map((server) => sampleRss(server.pid));
  try {
    const warmupFlows = await warmUp(apis, options);
    if (options.countQueries) await resetQueryCounters(servers);
    log(`driving ${options.concurrency} concurrent flows for ${options.seconds} s across ${servers.length} instance(s)`);
    const serverCpuBefore = servers.map((server) => cpuMs(server.pid));
    const backendsBefore = deployment.database ? await backendCpu(deployment.database) : null;
    const benchCpuBefore = process.cpuUsage();
    const boxBefore = boxBusyMs();
    const run = await drive(apis, options.concurrency, options.seconds);
    const boxAfter = boxBusyMs();
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const serverCpuAfter = servers.map((server) => cpuMs(server.pid));
    const backendsAfter = deployment.database ? await backendCpu(deployment.database) : null;
    const instances = servers.map((server, index) => {
      const before = serverCpuBefore[index] ?? null;
      const after = serverCpuAfter[index] ?? null;
      return {
        pid: server.pid,
        readyRssMb: readyRssMb[index] ?? null,
        peakRssMb: procStatusMb(server.pid, 'VmHWM'),
        maxSampledRssMb: samplers[index]?.stop() ?? null,
        cpuMs: before === null || after === null ? null : after - before,
      };
    });
    const backendCpuMs = backendsBefore && backendsAfter ? cpuDelta(backendsBefore, backendsAfter) : null;
    const boxMs = boxBefore === null || boxAfter === null ? null : boxAfter - boxBefore;
    return { run, warmupFlows, instances, benchCpuMs: (benchCpu.user + benchCpu.system) / 1_000, backendCpuMs, boxBusyMs: boxMs };
  } finally {
    for (const sampler of samplers) sampler.stop();
    for (const api of apis) api.close();
  }
}

/** Lets the servers' JIT, statement caches and database pages settle; its figures are dropped. */
async function warmUp(apis: ApiClient[], options: Options): Promise<number> {
  if (options.warmupSeconds === 0) return 0;
  log(`warming up for ${options.warmupSeconds} s`);
  const warmup = await drive(apis, options.concurrency, options.warmupSeconds);
  if (warmup.record.errors > 0) log(`warm-up errors: ${warmup.record.errors}; first: ${warmup.record.firstError}`);
  return warmup.record.flows.length;
}

/** Zeroes the in-server statement counts so they cover the measured run only; the signal is handled on the next loop turn. */
async function resetQueryCounters(servers: ServerProcess[]): Promise<void> {
  for (const server of servers) process.kill(server.pid, 'SIGUSR2');
  await new Promise((resolve) => setTimeout(resolve, 200));
}

/** Query counts need every backend gone (statistics are flushed at disconnect): call after the servers stop. */
async function postgresFigures(deployment: Deployment, measured: Measured, options: Options): Promise<PostgresFigures> {
  const database = deployment.database;
  if (!database || !deployment.baseline) throw new Error('postgresFigures needs a PostgreSQL deployment');
  const flows = measured.run.record.flows.length;
  const settled = await waitForNoBackends(database);
  if (!settled) log('backends still connected after the servers stopped: query counts may be a little low');
  const allFlows = measured.warmupFlows + flows;
  return {
    database: database.name,
    poolSize: Number(deployment.env.PAYFRAME_DB_POOL_SIZE) || null, // as the servers got it, inherited or --pool-size
    backendCpuPercent: percentOfCore(measured.backendCpuMs, measured.run.elapsedS),
    backendCpuMsPerFlow: msPerFlow(measured.backendCpuMs, flows),
    queriesPerFlow: queryCountsPerFlow(deployment.baseline, await readStats(database), allFlows),
    statements: options.countQueries ? readQueryLogs(Array.from({ length: options.instances }, (_, index) => queryLogPath(deployment, index)), flows) : undefined,
  };
}

/**
 * The server's main-thread profile, cut to the measured window (boot and warm-up excluded).
 * Files are named CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile; thread 0 is the main one.
 */
function loadProfile(dir: string, pid: number, startedAt: bigint, endedAt: bigint): ProfileSummary {
  const main = readdirSync(dir).find((name) => name.includes(`.${pid}.0.`) && name.endsWith('.cpuprofile'));
  if (!main) throw new Error(`the server (pid ${pid}) wrote no main-thread .cpuprofile in ${dir}`);
  const path = join(dir, main);
  log(`cpu profile: ${path} (open it in Chrome DevTools → Performance, or speedscope)`);
  return summarizeProfile(JSON.parse(readFileSync(path, 'utf8')), { path, fromUs: Number(startedAt / 1_000n), toUs: Number(endedAt / 1_000n) });
}

await main().catch((error: unknown) => {
  if (aborting) return;
  log(error instanceof Error ? error.message : String(error));
  process.exitCode = 2;
});
