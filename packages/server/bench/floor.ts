/**
 * `npm run bench:floor`: what this host can serve at all, as a yardstick for `npm run bench`. The
 * same load generator and scenarios drive a bare node:http server in a process of its own, which
 * reads each request's body and answers every request with the same charge-sized JSON, doing no
 * other work: its CPU per request is what any Node server pays for HTTP alone on this machine.
 *
 *   npm run bench:floor -- [--scenario flow|get|tokens] [--concurrency 32] [--seconds 10]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { apiClient, drive, prepareScenario, type ScenarioName } from './load.ts';
import { cpuMs } from './proc.ts';

/**
 * The bare server's one answer: JSON with the id the scenarios read, as long as a charge that
 * `GET /v2/charges/:id` gives for the bench's card (860 bytes). It is encoded once, so only its size counts.
 */
const CHARGE_BYTES = 860;
const BODY_START = '{"type":"charge","id":"C179540969311714956128566020285039","padding":"';
const CHARGE = `${BODY_START}${'x'.repeat(CHARGE_BYTES - BODY_START.length - 2)}"}`;

async function serveBare(): Promise<void> {
  const server = createServer((request, response) => {
    request.resume();
    request.once('end', () => {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(CHARGE) });
      response.end(CHARGE);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string', default: 'flow' },
      concurrency: { type: 'string', default: '32' },
      seconds: { type: 'string', default: '10' },
    },
  });
  const scenarioName = values.scenario as ScenarioName;
  if (!['flow', 'get', 'tokens'].includes(scenarioName)) throw new Error('--scenario must be flow, get or tokens');
  const concurrency = Number(values.concurrency);
  const seconds = Number(values.seconds);

  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    env: { ...process.env, PAYFRAME_BENCH_BARE_SERVER: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
    const pid = child.pid;
    if (pid === undefined) throw new Error('the bare server did not start');
    const api = apiClient(`http://127.0.0.1:${chunk.toString().trim()}`, 'bench', concurrency);
    const scenario = await prepareScenario(scenarioName, [api], concurrency);
    await drive([api], scenario, concurrency, 2);
    const serverBefore = cpuMs(pid);
    const benchBefore = process.cpuUsage();
    const run = await drive([api], scenario, concurrency, seconds);
    const bench = process.cpuUsage(benchBefore);
    const serverAfter = cpuMs(pid);
    api.close();
    const requests = Object.values(run.record.endpoints).reduce((sum, latencies) => sum + latencies.length, 0);
    const perRequest = (ms: number | null) => (ms === null ? '-' : `${(ms / requests).toFixed(3)} ms`);
    console.log(
      [
        `Bare node:http server, ${scenarioName} scenario, ${concurrency} concurrent loops, ${seconds} s, Node ${process.version}`,
        `  requests/s     ${(requests / run.elapsedS).toFixed(0)}  (${run.record.flows.length} loops, ${run.record.errors} errors)`,
        `  CPU            server ${perRequest(serverBefore === null || serverAfter === null ? null : serverAfter - serverBefore)} per request, load generator ${perRequest((bench.user + bench.system) / 1_000)} per request`,
        `  1-min load average at the end ${loadavg()[0]?.toFixed(1)}`,
      ].join('\n'),
    );
  } finally {
    child.kill();
  }
}

if (process.env.PAYFRAME_BENCH_BARE_SERVER === '1') await serveBare();
else await main();
