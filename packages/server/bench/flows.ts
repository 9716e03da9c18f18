/**
 * `npm run bench`: N concurrent shoppers each looping token → charge → capture against a real
 * `payframe serve` process on a fresh embedded database, for a fixed time.
 *
 *   npm run bench -- [--concurrency 32] [--seconds 15] [--warmup 2] [--json]
 *                    [--log-level warn] [--profile] [--profile-dir DIR]
 *
 * Loopback only, bounded in time (and in errors). The load generator shares the box with the
 * server, so it stays cheap: node:http with one keep-alive socket per worker, request bodies
 * encoded once, responses parsed only for the id the next step needs.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, mkdtempSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { type ProfileSummary, formatProfileSummary, summarizeProfile } from './cpu-profile.ts';

const BIN = fileURLToPath(new URL('../bin/payframe.js', import.meta.url));
const HOST = '127.0.0.1';

/** The targets the figures are judged against (per-flow p99 is defined at 32 concurrent flows). */
const TARGETS = { flowsPerSecond: 500, p99Ms: 50, rssMb: 200, atConcurrency: 32 } as const;

/** Past this many errors the server is broken, not slow: stop instead of spinning on failures. */
const MAX_ERRORS = 1_000;
const REQUEST_TIMEOUT_MS = 10_000;
const READY_TIMEOUT_MS = 30_000;
const RSS_SAMPLE_MS = 250;

type Options = {
  concurrency: number;
  seconds: number;
  warmupSeconds: number;
  json: boolean;
  logLevel: string;
  profileDir: string | null;
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
    },
    strict: true,
  });
  const profileDir = values['profile-dir'] ?? (values.profile ? mkdtempSync(join(tmpdir(), 'payframe-prof-')) : null);
  return {
    concurrency: positiveNumber('concurrency', values.concurrency, 1, 1_024),
    seconds: positiveNumber('seconds', values.seconds, 1, 600),
    warmupSeconds: positiveNumber('warmup', values.warmup, 0, 60),
    json: values.json,
    logLevel: values['log-level'],
    profileDir,
  };
}

function positiveNumber(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// The server process
// ---------------------------------------------------------------------------------------------

type ServerProcess = {
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
async function startServer(dataDir: string, options: Options): Promise<ServerProcess> {
  const port = await freePort();
  const nodeFlags = options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : [];
  const args = [...nodeFlags, BIN, 'serve', '--port', String(port), '--host', HOST, '--data-dir', dataDir, '--log-level', options.logLevel];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error('could not spawn the server');

  // Keep only the head of the output: enough to explain a failure, bounded however chatty the log.
  let output = '';
  const keep = (chunk: string) => {
    if (output.length < 64_000) output += chunk;
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);

  const url = await waitUntilReady(child, `http://${HOST}:${port}`, () => output);
  return { child, pid: child.pid, url, output: () => output };
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

function stopServer(server: ServerProcess): Promise<number | null> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

/** Runs the real CLI, as an operator would, against the server's data directory. */
async function createTestKey(dataDir: string): Promise<string> {
  const run = promisify(execFile);
  const { stdout } = await run(process.execPath, [BIN, 'keys', 'create', '--account', 'bench', '--mode', 'test', '--json', '--data-dir', dataDir]);
  return (JSON.parse(stdout) as { secretKey: string }).secretKey;
}

// ---------------------------------------------------------------------------------------------
// Memory: VmRSS sampled while the load runs, VmHWM (the kernel's own peak) read at the end
// ---------------------------------------------------------------------------------------------

function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match?.[1] ? Number(match[1]) / 1024 : null;
  } catch {
    return null; // not Linux, or the process is gone
  }
}

/** utime + stime of a process in ms, from /proc/<pid>/stat (clock ticks are 100 Hz on Linux). */
function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15 of the line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Samples VmRSS every 250 ms; `stop()` ends sampling and answers the largest value seen. */
function sampleRss(pid: number): { stop(): number | null } {
  let maxRssMb: number | null = null;
  const timer = setInterval(() => {
    const rssMb = procStatusMb(pid, 'VmRSS');
    if (rssMb !== null) maxRssMb = Math.max(maxRssMb ?? 0, rssMb);
  }, RSS_SAMPLE_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return maxRssMb;
    },
  };
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
  errors: number;
  firstError: string | null;
};

function newRecorder(): Recorder {
  const endpoints = Object.fromEntries(ENDPOINTS.map((endpoint) => [endpoint, []])) as unknown as Recorder['endpoints'];
  return { flows: [], endpoints, errors: 0, firstError: null };
}

class StepFailed extends Error {}

/** One request, timed; anything but a 200 fails the flow. */
async function step(record: Recorder, endpoint: Endpoint, send: () => Promise<Reply>): Promise<string> {
  const started = performance.now();
  const reply = await send().catch((error: Error) => ({ status: 0, body: `network error: ${error.message}` }));
  record.endpoints[endpoint].push(performance.now() - started);
  if (reply.status !== 200) {
    record.errors += 1;
    record.firstError ??= `${endpoint} → ${reply.status} ${reply.body}`;
    throw new StepFailed();
  }
  return reply.body;
}

const idOf = (body: string) => (JSON.parse(body) as { id: string }).id;

async function oneFlow(api: ApiClient, record: Recorder): Promise<void> {
  const started = performance.now();
  try {
    const token = idOf(await step(record, 'POST /v2/tokens', () => api.post('/v2/tokens', TOKEN_FORM)));
    const charge = idOf(await step(record, 'POST /v2/charges', () => api.post('/v2/charges', chargeForm(token))));
    await step(record, 'POST /v2/charges/capture/:id', () => api.post(`/v2/charges/capture/${encodeURIComponent(charge)}`));
    record.flows.push(performance.now() - started);
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
  }
}

/** A finished run; startedAt/endedAt are process.hrtime (ns), to cut the server's CPU profile to it. */
type Run = { record: Recorder; elapsedS: number; startedAt: bigint; endedAt: bigint };

/** Runs `concurrency` workers for `seconds`; a flow started before the deadline is let finish. */
async function drive(api: ApiClient, concurrency: number, seconds: number): Promise<Run> {
  const record = newRecorder();
  const startedAt = process.hrtime.bigint();
  const started = performance.now();
  const until = started + seconds * 1_000;
  const worker = async () => {
    while (performance.now() < until && record.errors < MAX_ERRORS) await oneFlow(api, record);
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

type Figures = {
  node: string;
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
  serverPeakRssMb: number | null;
  serverMaxSampledRssMb: number | null;
  /** Before any load: what boot (tsx compiling the sources, loading every module) costs on its own. */
  serverReadyRssMb: number | null;
  /** CPU used during the measured run, in % of one core: the box is shared, so these explain the rest. */
  serverCpuPercent: number | null;
  serverCpuMsPerFlow: number | null;
  benchCpuPercent: number;
  loadAverage1m: number;
  targets: Record<'flowsPerSecond' | 'p99' | 'rss', { target: string; pass: boolean }>;
  profile?: ProfileSummary | undefined;
};

type Machine = { readyRssMb: number | null; peakRssMb: number | null; maxSampledRssMb: number | null; serverCpuMs: number | null; benchCpuMs: number; loadAverage1m: number };

function figuresOf(run: Run, options: Options, machine: Machine): Figures {
  const { record, elapsedS } = run;
  const requests = ENDPOINTS.reduce((sum, endpoint) => sum + record.endpoints[endpoint].length, 0);
  const flowLatencyMs = latency(record.flows);
  const flowsPerSecond = round1(record.flows.length / elapsedS);
  const at = options.concurrency === TARGETS.atConcurrency ? '' : ` (defined at ${TARGETS.atConcurrency} concurrent flows)`;
  return {
    node: process.version,
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
    serverPeakRssMb: machine.peakRssMb === null ? null : round1(machine.peakRssMb),
    serverMaxSampledRssMb: machine.maxSampledRssMb === null ? null : round1(machine.maxSampledRssMb),
    serverReadyRssMb: machine.readyRssMb === null ? null : round1(machine.readyRssMb),
    serverCpuPercent: machine.serverCpuMs === null ? null : round1(machine.serverCpuMs / (10 * elapsedS)),
    serverCpuMsPerFlow: machine.serverCpuMs === null || record.flows.length === 0 ? null : Math.round((100 * machine.serverCpuMs) / record.flows.length) / 100,
    benchCpuPercent: round1(machine.benchCpuMs / (10 * elapsedS)),
    loadAverage1m: round1(machine.loadAverage1m),
    targets: {
      flowsPerSecond: { target: `≥ ${TARGETS.flowsPerSecond} flows/s`, pass: flowsPerSecond >= TARGETS.flowsPerSecond },
      p99: { target: `flow p99 < ${TARGETS.p99Ms} ms${at}`, pass: flowLatencyMs.p99 < TARGETS.p99Ms },
      rss: { target: `server peak RSS < ${TARGETS.rssMb} MB`, pass: machine.peakRssMb !== null && machine.peakRssMb < TARGETS.rssMb },
    },
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

function formatReport(figures: Figures): string {
  const mark = (pass: boolean) => (pass ? 'PASS' : 'MISS');
  const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(1)} ms`);
  const mb = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(1)} MB`);
  const lines = [
    `Payframe bench: token → charge → capture, ${figures.concurrency} concurrent flows, ${figures.durationS} s (after ${figures.warmupS} s warm-up), Node ${figures.node}`,
    '',
    `  flows/s        ${figures.flowsPerSecond}  (${figures.flows} flows)`,
    `  requests/s     ${figures.requestsPerSecond}  (${figures.requests} requests)`,
    `  flow latency   p50 ${ms(figures.flowLatencyMs.p50)}  p90 ${ms(figures.flowLatencyMs.p90)}  p99 ${ms(figures.flowLatencyMs.p99)}  max ${ms(figures.flowLatencyMs.max)}`,
    ...ENDPOINTS.map((endpoint) => {
      const { p50, p99 } = figures.endpointLatencyMs[endpoint];
      return `  ${endpoint.padEnd(30)} p50 ${ms(p50)}  p99 ${ms(p99)}`;
    }),
    `  errors         ${figures.errors}${figures.errors >= MAX_ERRORS ? ' (stopped early: the server is failing, not slow)' : ''}` +
      `${figures.firstError ? `  first: ${figures.firstError.slice(0, 500)}` : ''}`,
    `  server RSS     peak ${mb(figures.serverPeakRssMb)} (VmHWM), max sampled under load ${mb(figures.serverMaxSampledRssMb)}, at ready ${mb(figures.serverReadyRssMb)}`,
    `  CPU            server ${figures.serverCpuPercent ?? 'n/a'} % of a core (${figures.serverCpuMsPerFlow ?? 'n/a'} ms per flow), ` +
      `load generator ${figures.benchCpuPercent} %, 1-min load average before the bench ${figures.loadAverage1m}`,
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

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  // Taken before our own load starts: it says how busy the shared box already was.
  const loadAverage1m = loadavg()[0] ?? 0;
  const dataDir = mkdtempSync(join(tmpdir(), 'payframe-bench-'));
  let server: ServerProcess | undefined;
  try {
    if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });
    server = await startServer(dataDir, options);
    log(`server pid ${server.pid} ready at ${server.url}; data in ${dataDir}`);
    const { run, machine } = await measure(server, dataDir, options);

    // The CPU profile is written when the server exits, so stop it before reading the figures out.
    const exitCode = await stopServer(server);
    if (exitCode !== 0) log(`server exited with ${exitCode}:\n${server.output().slice(-4_000)}`);
    const figures = figuresOf(run, options, { ...machine, loadAverage1m });
    if (options.profileDir) figures.profile = loadProfile(options.profileDir, server.pid, run.startedAt, run.endedAt);

    console.log(options.json ? JSON.stringify(figures) : formatReport(figures));
    if (figures.errors > 0) process.exitCode = 1;
  } finally {
    if (server) await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Key → warm-up → measured run, with the server's memory and CPU read around the measured part. */
async function measure(server: ServerProcess, dataDir: string, options: Options): Promise<{ run: Run; machine: Omit<Machine, 'loadAverage1m'> }> {
  const readyRssMb = procStatusMb(server.pid, 'VmRSS');
  const api = apiClient(server.url, await createTestKey(dataDir), options.concurrency);
  const rss = sampleRss(server.pid);
  try {
    // Warm-up lets the server's JIT, statement cache and SQLite pages settle; its figures are dropped.
    if (options.warmupSeconds > 0) {
      log(`warming up for ${options.warmupSeconds} s`);
      const warmup = await drive(api, options.concurrency, options.warmupSeconds);
      if (warmup.record.errors > 0) log(`warm-up errors: ${warmup.record.errors}; first: ${warmup.record.firstError}`);
    }
    log(`driving ${options.concurrency} concurrent flows for ${options.seconds} s`);
    const serverCpuBefore = cpuMs(server.pid);
    const benchCpuBefore = process.cpuUsage();
    const run = await drive(api, options.concurrency, options.seconds);
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const serverCpuAfter = cpuMs(server.pid);
    return {
      run,
      machine: {
        readyRssMb,
        peakRssMb: procStatusMb(server.pid, 'VmHWM'),
        maxSampledRssMb: rss.stop(),
        serverCpuMs: serverCpuBefore === null || serverCpuAfter === null ? null : serverCpuAfter - serverCpuBefore,
        benchCpuMs: (benchCpu.user + benchCpu.system) / 1_000,
      },
    };
  } finally {
    rss.stop();
    api.close();
  }
}

/**
 * The server's main-thread profile, cut to the measured window (boot and warm-up excluded).
 * Files are named CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile; thread 0 is the main one
 * (tsx's module loader runs in a second thread that idles through the run).
 */
function loadProfile(dir: string, pid: number, startedAt: bigint, endedAt: bigint): ProfileSummary {
  const main = readdirSync(dir).find((name) => name.includes(`.${pid}.0.`) && name.endsWith('.cpuprofile'));
  if (!main) throw new Error(`the server (pid ${pid}) wrote no main-thread .cpuprofile in ${dir}`);
  const path = join(dir, main);
  log(`cpu profile: ${path} (open it in Chrome DevTools → Performance, or speedscope)`);
  return summarizeProfile(JSON.parse(readFileSync(path, 'utf8')), { path, fromUs: Number(startedAt / 1_000n), toUs: Number(endedAt / 1_000n) });
}

await main().catch((error: unknown) => {
  log(error instanceof Error ? error.message : String(error));
  process.exitCode = 2;
});
