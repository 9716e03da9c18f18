/**
 * `npm run bench:floor`: what this host can serve at all, as a yardstick for `npm run bench`. The
 * same load generator and scenarios drive a bare node:http server in a process of its own, which
 * reads each request's body and answers every request with the bytes of a real
 * `GET /v2/charges/:id` answer (`content-type: application/json` and nothing else), doing no other
 * work: its CPU per request is what any Node server pays for HTTP alone on this machine.
 * `npm run bench -- --vs-floor` (vs-floor.ts) measures it before and after each scenario.
 *
 *   npm run bench:floor -- [--scenario flow|get|tokens] [--concurrency 32] [--seconds 8] [--server node|fastify]
 *                          [--work-us 0,25,50,75,100]
 *
 * --server fastify serves the same bytes from a bare Fastify instance (no plugin, no hook, one
 * route taking any method and path, bodies read and dropped): the ceiling of the framework the
 * server is built on, as a share of the floor, on this host and in this state of it.
 *
 * --work-us turns a ratio into a budget: the bare node:http server is measured once for each
 * amount, spending that many microseconds of CPU on every request before it answers (a loop timed
 * against the process's own CPU clock when it starts), and each run's requests/s is shown as a
 * ratio to the run without work. The amount at which the ratio falls to a target is what a server
 * may spend per request, beyond bare HTTP, to meet it on this host in its present state.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { realChargeAnswer } from './charge-answer.ts';
import { apiClient, drive, prepareScenario, type ScenarioName } from './load.ts';
import { cpuMs } from './proc.ts';

const BODY_ENV = 'PAYFRAME_BENCH_FLOOR_BODY';
const KIND_ENV = 'PAYFRAME_BENCH_FLOOR_SERVER';
const WORK_ENV = 'PAYFRAME_BENCH_FLOOR_WORK_US';

export type FloorServer = 'node' | 'fastify';

/** Ratios to the floor of the same run that each scenario should reach (`--vs-floor` judges by them). */
export const FLOOR_TARGETS = { get: 0.4, tokens: 0.25, flow: 0.2, flowRssMb: 200, postgresFlowsPerTps: 0.25 } as const;
const SCENARIO_TARGETS = [
  ['GET', FLOOR_TARGETS.get],
  ['tokens', FLOOR_TARGETS.tokens],
  ['flow', FLOOR_TARGETS.flow],
] as const;

/** The bare server: the one answer it was given (base64 in the environment), whatever was asked. */
async function serveBare(): Promise<void> {
  const body = Buffer.from(process.env[BODY_ENV] ?? '', 'base64');
  if (process.env[KIND_ENV] === 'fastify') return serveBareFastify(body);
  const headers = { 'content-type': 'application/json', 'content-length': body.length };
  const work = cpuWork(Number(process.env[WORK_ENV] ?? 0));
  const server = createServer((request, response) => {
    request.resume();
    request.once('end', () => {
      work();
      response.writeHead(200, headers);
      response.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
}

/** What the loop below leaves, kept where the compiler cannot see it unused. */
let sink = 0;

function spin(iterations: number): void {
  let value = sink;
  for (let i = 0; i < iterations; i++) value = (Math.imul(value, 31) + i) | 0;
  sink = value;
}

/** A function that spends about `microseconds` of CPU, sized against the process's CPU clock. */
function cpuWork(microseconds: number): () => void {
  if (microseconds <= 0) return () => undefined;
  let iterations = 100_000;
  // Warm the loop up, then time ever longer runs until one lasts a quarter of a second of CPU.
  spin(iterations);
  for (;;) {
    const before = process.cpuUsage();
    spin(iterations);
    const used = process.cpuUsage(before);
    const spent = used.user + used.system;
    if (spent >= 250_000) {
      const perRequest = Math.round((iterations / spent) * microseconds);
      return () => spin(perRequest);
    }
    iterations *= 2;
  }
}

/** The same answer from Fastify with nothing added: its own cost per request over node:http's. */
async function serveBareFastify(body: Buffer): Promise<void> {
  const { default: fastify } = await import('fastify');
  const app = fastify();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
  app.route({ method: ['GET', 'POST', 'DELETE'], url: '/*', handler: (_request, reply) => reply.type('application/json').send(body) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${(app.server.address() as AddressInfo).port}\n`);
}

export type FloorRun = {
  scenario: ScenarioName;
  requestsPerSecond: number;
  requests: number;
  errors: number;
  /** The bare server's CPU per request, in ms; null where /proc cannot be read. */
  serverCpuMsPerRequest: number | null;
  benchCpuMsPerRequest: number;
  elapsedS: number;
};

export type FloorOptions = {
  scenario: ScenarioName;
  body: string;
  concurrency: number;
  warmupSeconds: number;
  seconds: number;
  server?: FloorServer;
  /** CPU the bare node:http server spends on each request before answering, in microseconds. */
  workUs?: number;
};

/** One floor measurement: a fresh bare server, the scenario's warm-up, then its measured run. */
export async function measureFloor(options: FloorOptions): Promise<FloorRun> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    env: {
      ...process.env,
      PAYFRAME_BENCH_BARE_SERVER: '1',
      [BODY_ENV]: Buffer.from(options.body).toString('base64'),
      [KIND_ENV]: options.server ?? 'node',
      [WORK_ENV]: String(options.workUs ?? 0),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
    const pid = child.pid;
    if (pid === undefined) throw new Error('the bare server did not start');
    const api = apiClient(`http://127.0.0.1:${chunk.toString().trim()}`, 'bench', options.concurrency);
    try {
      const scenario = await prepareScenario(options.scenario, [api], options.concurrency);
      if (options.warmupSeconds > 0) await drive([api], scenario, options.concurrency, options.warmupSeconds);
      const serverBefore = cpuMs(pid);
      const benchBefore = process.cpuUsage();
      const run = await drive([api], scenario, options.concurrency, options.seconds);
      const bench = process.cpuUsage(benchBefore);
      const serverAfter = cpuMs(pid);
      const requests = Object.values(run.record.endpoints).reduce((sum, latencies) => sum + latencies.length, 0);
      const per = (ms: number) => Math.round((1_000 * ms) / Math.max(requests, 1)) / 1_000;
      return {
        scenario: options.scenario,
        requestsPerSecond: Math.round((10 * requests) / run.elapsedS) / 10,
        requests,
        errors: run.record.errors,
        serverCpuMsPerRequest: serverBefore === null || serverAfter === null ? null : per(serverAfter - serverBefore),
        benchCpuMsPerRequest: per((bench.user + bench.system) / 1_000),
        elapsedS: run.elapsedS,
      };
    } finally {
      api.close();
    }
  } finally {
    child.kill();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string', default: 'flow' },
      concurrency: { type: 'string', default: '32' },
      seconds: { type: 'string', default: '8' },
      warmup: { type: 'string', default: '2' },
      server: { type: 'string', default: 'node' },
      'work-us': { type: 'string' },
    },
  });
  const server = values.server as FloorServer;
  if (!['node', 'fastify'].includes(server)) throw new Error('--server must be node or fastify');
  const scenario = values.scenario as ScenarioName;
  if (!['flow', 'get', 'tokens'].includes(scenario)) throw new Error('--scenario must be flow, get or tokens');
  const concurrency = Number(values.concurrency);
  const seconds = Number(values.seconds);
  const body = await realChargeAnswer();
  const options = { scenario, body, concurrency, warmupSeconds: Number(values.warmup), seconds, server };
  if (values['work-us'] !== undefined) {
    if (server !== 'node') throw new Error('--work-us measures the bare node:http server only');
    return printBudget(options, workAmounts(values['work-us']));
  }
  const floor = await measureFloor(options);
  const cpu = floor.serverCpuMsPerRequest === null ? '-' : `${floor.serverCpuMsPerRequest.toFixed(3)} ms`;
  console.log(
    [
      `Bare ${server === 'fastify' ? 'Fastify' : 'node:http'} server, ${scenario} scenario, ${concurrency} concurrent loops, ${seconds} s, Node ${process.version}, answering ${Buffer.byteLength(body)} bytes`,
      `  requests/s     ${floor.requestsPerSecond.toFixed(0)}  (${floor.requests} requests, ${floor.errors} errors)`,
      `  CPU            server ${cpu} per request, load generator ${floor.benchCpuMsPerRequest.toFixed(3)} ms per request`,
      `  1-min load average at the end ${loadavg()[0]?.toFixed(1)}`,
    ].join('\n'),
  );
}

function workAmounts(list: string): number[] {
  const amounts = list.split(',').map((item) => Number(item.trim()));
  if (amounts.some((amount) => !Number.isInteger(amount) || amount <= 0 || amount > 10_000)) {
    throw new Error('--work-us takes whole microseconds above 0, such as 25,50,75,100');
  }
  return [...new Set(amounts)].sort((a, b) => a - b);
}

/** The work at which the ratio, falling as the work grows, meets `target` (linear between two runs). */
function workAtRatio(points: readonly { workUs: number; ratio: number }[], target: number): number | null {
  for (let i = 1; i < points.length; i++) {
    const [low, high] = [points[i - 1], points[i]];
    if (low && high && low.ratio >= target && high.ratio < target) {
      return low.workUs + ((low.ratio - target) / (low.ratio - high.ratio)) * (high.workUs - low.workUs);
    }
  }
  return null;
}

/** The floor without work, each amount of work, the floor again: what each target leaves a server to spend. */
async function printBudget(options: FloorOptions, amounts: number[]): Promise<void> {
  const before = await measureFloor(options);
  const runs: FloorRun[] = [];
  for (const workUs of amounts) runs.push(await measureFloor({ ...options, workUs }));
  const after = await measureFloor(options);
  const floor = (before.requestsPerSecond + after.requestsPerSecond) / 2;
  const points = [{ workUs: 0, ratio: 1 }, ...runs.map((run, i) => ({ workUs: amounts[i] ?? 0, ratio: run.requestsPerSecond / floor }))];
  const cpu = (run: FloorRun) => (run.serverCpuMsPerRequest === null ? '-' : run.serverCpuMsPerRequest.toFixed(3));
  const lines = [
    `Bare node:http server, ${options.scenario} scenario, ${options.concurrency} concurrent loops, ${options.seconds} s a run, Node ${process.version}, answering ${Buffer.byteLength(options.body)} bytes`,
    `  floor without work: ${before.requestsPerSecond.toFixed(0)} before, ${after.requestsPerSecond.toFixed(0)} after (mean ${floor.toFixed(0)} requests/s)`,
    '',
    '  work µs  requests/s  ratio  server CPU ms/req  load generator ms/req',
    ...[before, ...runs, after].map((run, i) => {
      const workUs = i === 0 || i === runs.length + 1 ? 0 : (amounts[i - 1] ?? 0);
      return `  ${String(workUs).padStart(7)}  ${run.requestsPerSecond.toFixed(0).padStart(10)}  ${(run.requestsPerSecond / floor).toFixed(3).padStart(5)}  ${cpu(run).padStart(17)}  ${run.benchCpuMsPerRequest.toFixed(3).padStart(21)}`;
    }),
    '',
    ...SCENARIO_TARGETS.map(([scenario, target]) => {
      const workUs = workAtRatio(points, target);
      return `  ${scenario} target, ratio ${target.toFixed(2)}: ${workUs === null ? 'not crossed by these amounts' : `at about ${workUs.toFixed(0)} µs of work per request`}`;
    }),
    `  1-min load average at the end ${loadavg()[0]?.toFixed(1)}`,
  ];
  console.log(lines.join('\n'));
}

if (process.env.PAYFRAME_BENCH_BARE_SERVER === '1') await serveBare();
else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
