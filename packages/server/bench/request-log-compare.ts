/**
 * `npm run bench -- --request-log compare [--scenario flow] [--seconds 16] [--slice 1]`: what the
 * request log costs the API's throughput, measured so that the host's drift cannot decide it.
 *
 * Two servers run side by side, each on its own fresh store: one keeps the request log, one runs
 * with `--request-log off`. The load then alternates between them in short slices (on, off, off,
 * on, on, off, …: the order cancels a drift that rises or falls steadily), each side driven for
 * `--seconds` in all. Requests/s and server CPU per request are summed per side, and the cost is
 * the throughput lost with the log on. Target: at most 10 %.
 */
import { type BenchServer, createTestKeys, type Deployment, deploy, log, startServer, stopServer } from './deployment.ts';
import { apiClient, drive, prepareScenario } from './load.ts';
import type { Options } from './options.ts';
import { cpuMs } from './proc.ts';

const TARGET_PERCENT = 10;

type Side = { name: 'on' | 'off'; deployment: Deployment; server: BenchServer; requests: number; seconds: number; cpuMs: number; errors: number };

export async function runRequestLogComparison(options: Options): Promise<void> {
  const sliceSeconds = options.sliceSeconds;
  const sides: Side[] = [];
  for (const name of ['on', 'off'] as const) {
    const deployment = await deploy(options);
    const server = await startServer(deployment, 0, { ...options, requestLog: name });
    log(`request log ${name}: pid ${server.pid} at ${server.url}`);
    sides.push({ name, deployment, server, requests: 0, seconds: 0, cpuMs: 0, errors: 0 });
  }
  const clients = await Promise.all(
    sides.map(async (side) => {
      const keys = await createTestKeys(side.deployment);
      const api = apiClient(side.server.url, keys.secretKey, options.concurrency);
      return { api, scenario: await prepareScenario(options.scenario, [api], options.concurrency) };
    }),
  );
  try {
    for (const [index, { api, scenario }] of clients.entries()) {
      log(`warming up request log ${sides[index]?.name} for ${options.warmupSeconds} s`);
      await drive([api], scenario, options.concurrency, options.warmupSeconds);
    }
    const slices = Math.max(2, Math.round(options.seconds / sliceSeconds));
    log(`alternating ${slices} slices of ${sliceSeconds} s per side, ${options.concurrency} concurrent ${options.scenario} loops`);
    for (let slice = 0; slice < slices; slice++) {
      // on off | off on | on off | …
      const order = slice % 2 === 0 ? [0, 1] : [1, 0];
      for (const index of order) {
        const side = sides[index]!;
        const { api, scenario } = clients[index]!;
        const before = cpuMs(side.server.pid) ?? 0;
        const run = await drive([api], scenario, options.concurrency, sliceSeconds);
        side.cpuMs += (cpuMs(side.server.pid) ?? 0) - before;
        side.requests += run.record.instances[0]?.latencies.length ?? 0;
        side.errors += run.record.errors;
        side.seconds += run.elapsedS;
      }
    }
  } finally {
    for (const { api } of clients) api.close();
    await Promise.all(sides.map((side) => stopServer(side.server)));
  }
  console.log(formatComparison(sides, options));
  if (sides.some((side) => side.errors > 0)) process.exitCode = 1;
}

function formatComparison(sides: Side[], options: Options): string {
  const perSecond = (side: Side) => side.requests / side.seconds;
  const rows = sides.map(
    (side) => `| ${side.name} | ${perSecond(side).toFixed(1)} | ${side.requests} | ${(side.cpuMs / side.requests).toFixed(3)} | ${side.errors} |`,
  );
  const [on, off] = sides as [Side, Side];
  const cost = (1 - perSecond(on) / perSecond(off)) * 100;
  const cpuCost = (on.cpuMs / on.requests / (off.cpuMs / off.requests) - 1) * 100;
  return [
    `Payframe bench --request-log compare: ${options.scenario} on ${options.db}, ${options.concurrency} concurrent loops, ${on.seconds.toFixed(1)} s per side in alternating slices`,
    '',
    '| request log | requests/s | requests | server CPU ms/request | errors |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    `throughput lost with the request log: ${cost.toFixed(1)} % (target: at most ${TARGET_PERCENT} %) ${cost <= TARGET_PERCENT ? 'PASS' : 'MISS'}`,
    `server CPU per request with the request log: ${cpuCost >= 0 ? '+' : ''}${cpuCost.toFixed(1)} %`,
  ].join('\n');
}
