/**
 * `npm run bench:floor`: what this host can serve at all, as a yardstick for `npm run bench`. The
 * same load generator and scenarios drive a bare node:http server in a process of its own, which
 * reads each request's body and answers every request with the bytes of a real
 * `GET /v2/charges/:id` answer (`content-type: application/json` and nothing else), doing no other
 * work: its CPU per request is what any Node server pays for HTTP alone on this machine.
 * `npm run bench -- --vs-floor` (vs-floor.ts) measures it before and after each scenario.
 *
 *   npm run bench:floor -- [--scenario flow|get|tokens] [--concurrency 32] [--seconds 8] [--server node|fastify]
 *
 * --server fastify serves the same bytes from a bare Fastify instance (no plugin, no hook, one
 * route taking any method and path, bodies read and dropped): the ceiling of the framework the
 * server is built on, as a share of the floor, on this host and in this state of it.
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

export type FloorServer = 'node' | 'fastify';

/** The bare server: the one answer it was given (base64 in the environment), whatever was asked. */
async function serveBare(): Promise<void> {
  const body = Buffer.from(process.env[BODY_ENV] ?? '', 'base64');
  if (process.env[KIND_ENV] === 'fastify') return serveBareFastify(body);
  const headers = { 'content-type': 'application/json', 'content-length': body.length };
  const server = createServer((request, response) => {
    request.resume();
    request.once('end', () => {
      response.writeHead(200, headers);
      response.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
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

export type FloorOptions = { scenario: ScenarioName; body: string; concurrency: number; warmupSeconds: number; seconds: number; server?: FloorServer };

/** One floor measurement: a fresh bare server, the scenario's warm-up, then its measured run. */
export async function measureFloor(options: FloorOptions): Promise<FloorRun> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    env: {
      ...process.env,
      PAYFRAME_BENCH_BARE_SERVER: '1',
      [BODY_ENV]: Buffer.from(options.body).toString('base64'),
      [KIND_ENV]: options.server ?? 'node',
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
    },
  });
  const server = values.server as FloorServer;
  if (!['node', 'fastify'].includes(server)) throw new Error('--server must be node or fastify');
  const scenario = values.scenario as ScenarioName;
  if (!['flow', 'get', 'tokens'].includes(scenario)) throw new Error('--scenario must be flow, get or tokens');
  const concurrency = Number(values.concurrency);
  const seconds = Number(values.seconds);
  const body = await realChargeAnswer();
  const floor = await measureFloor({ scenario, body, concurrency, warmupSeconds: Number(values.warmup), seconds, server });
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

if (process.env.PAYFRAME_BENCH_BARE_SERVER === '1') await serveBare();
else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
