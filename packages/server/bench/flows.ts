/**
 * `npm run bench`: N concurrent shoppers each looping token → charge → capture against real
 * `payframe serve` processes on a fresh database, for a fixed time. --scenario get: each reads one
 * charge (GET /v2/charges/:id) over and over; --scenario tokens: each creates tokens; a "flow" is
 * then one request.
 *
 *   npm run bench -- [--scenario flow|get|tokens] [--concurrency 32] [--seconds 15] [--warmup 2] [--json]
 *                    [--log-level warn] [--profile] [--profile-dir DIR]
 *                    [--db sqlite|postgres] [--instances N|compare] [--postgres-url URL] [--pool-size N]
 *                    [--count-queries] [--matrix] [--webhook [--pairs N]] [--request-log on|off|compare] [--slice 1] [--against BIN] [--vs-floor [--runs N]]
 *
 * --db sqlite (default): one server on the embedded store. --db postgres: a throwaway database
 * (dropped at the end), N instances sharing it and one master key, requests alternating between
 * the instances; per-flow query counts from PostgreSQL's statistics. --count-queries adds exact
 * per-statement counts measured inside the servers. --matrix: see compare.ts. --webhook: the flow
 * without and with one webhook endpoint, side by side in alternating slices (or, with --pairs N, in
 * whole runs alternating over N pairs), see webhook.ts. --request-log off: servers that keep no
 * request log; --request-log compare: one server with and one without, in alternating slices of
 * --slice seconds, see request-log-compare.ts; --against BIN: this build and another side by side, see
 * build-compare.ts. --instances compare (PostgreSQL): one instance and two side by side, see instances-compare.ts.
 * --vs-floor: every scenario between two measurements of
 * the floor, as ratios, --runs N times in a row, see vs-floor.ts. --store is --db's other name.
 *
 * Loopback only, bounded in time (and in errors); servers and database are removed on every exit
 * path, Ctrl-C included. The load generator shares the box with the servers, so it stays cheap:
 * undici's Pool over keep-alive connections, request bodies encoded once, responses parsed only for
 * the id the next step needs. `npm run bench:floor` (floor.ts) runs the same load against a bare
 * Node server, for what this host can serve at all.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type ProfileSummary, summarizeProfile } from './cpu-profile.ts';
import {
  abort,
  aborting,
  type BenchServer,
  backendCpu,
  cleanUp,
  cpuDelta,
  createTestKeys,
  type Deployment,
  deploy,
  log,
  onCleanup,
  queryLogPath,
  startServer,
  stopServer,
} from './deployment.ts';
import { type ApiClient, apiClient, drive, prepareScenario, type Run, type Scenario } from './load.ts';
import { type Options, parseOptions } from './options.ts';
import { queryCountsPerFlow, readStats, waitForNoBackends } from './postgres.ts';
import { boxBusyMs, cpuMs, procStatusMb, sampleRss } from './proc.ts';
import { readQueryLogs } from './query-log.ts';
import { type Figures, figuresOf, formatReport, type InstanceMachine, msPerFlow, type PostgresFigures, percentOfCore, statementTargets } from './report.ts';
import { registerEndpoint, startBenchReceiver } from './webhook.ts';

export type { Figures } from './report.ts';

/** Beyond warm-up and run: boot, the key, stopping, statistics, dropping the database. */
const OVERHEAD_BUDGET_S = 180;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const options = parseOptions(argv);
  if (options.matrix) {
    const { runMatrix } = await import('./compare.ts');
    return runMatrix(argv.filter((arg) => arg !== '--matrix'));
  }
  if (options.vsFloor) {
    const { runVsFloor } = await import('./vs-floor.ts');
    return runVsFloor(options, argv);
  }
  if (options.against) {
    const { runBuildComparison } = await import('./build-compare.ts');
    return runBuildComparison(options).finally(cleanUp);
  }
  if (options.instancesCompare) {
    const { runInstancesComparison } = await import('./instances-compare.ts');
    return runInstancesComparison(options).finally(cleanUp);
  }
  if (options.requestLog === 'compare') {
    const { runRequestLogComparison } = await import('./request-log-compare.ts');
    return runRequestLogComparison(options).finally(cleanUp);
  }
  if (options.webhook) {
    const { runWebhookComparison } = await import('./webhook.ts');
    return runWebhookComparison(options, argv).finally(cleanUp);
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
  const exitCodes = await Promise.all(servers.map((server) => stopServer(server)));
  servers.forEach((server, index) => {
    if (exitCodes[index] !== 0) log(`instance ${index + 1} exited with ${exitCodes[index]}:\n${server.output().slice(-4_000)}`);
  });
  const instances = measured.instances.map((instance, index) => ({ ...instance, exitCode: exitCodes[index] ?? null }));
  const figures = figuresOf(measured.run, options, { ...measured, instances, loadAverage1m });
  if (deployment.database) figures.postgres = await postgresFigures(deployment, measured);
  if (options.countQueries) {
    const logs = Array.from({ length: options.instances }, (_, index) => queryLogPath(deployment, index));
    figures.statements = readQueryLogs(logs, measured.run.record.flows.length);
    figures.targets.push(...statementTargets(options, figures.statements));
  }
  if (measured.webhooksReceived !== null) {
    figures.webhooks = { received: measured.webhooksReceived, receivedPerSecond: Math.round((measured.webhooksReceived / measured.run.elapsedS) * 10) / 10 };
  }
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
  /** Webhooks the receiver got during the measured run; null without --with-webhook. */
  webhooksReceived: number | null;
};

/** Key → warm-up → measured run, with the servers' (and backends') memory and CPU read around the measured part. */
async function measure(servers: BenchServer[], deployment: Deployment, options: Options): Promise<Measured> {
  const readyRssMb = servers.map((server) => procStatusMb(server.pid, 'VmRSS'));
  const keys = await createTestKeys(deployment);
  const receiver = options.withWebhook ? await startBenchReceiver() : null;
  if (receiver) {
    onCleanup(() => receiver.close());
    await registerEndpoint(servers[0]?.url ?? '', keys.secretKey, receiver.url);
  }
  // Every scenario uses the secret key, tokens included: that is the figure judged against the floor.
  const apis = servers.map((server) => apiClient(server.url, keys.secretKey, options.concurrency));
  const samplers = servers.map((server) => sampleRss(server.pid));
  try {
    const scenario = await prepareScenario(options.scenario, apis, options.concurrency);
    const warmupFlows = await warmUp(apis, scenario, options);
    if (options.countQueries) await resetQueryCounters(servers);
    log(`driving ${options.concurrency} concurrent ${options.scenario} loops for ${options.seconds} s across ${servers.length} instance(s)`);
    const serverCpuBefore = servers.map((server) => cpuMs(server.pid));
    const backendsBefore = deployment.database ? await backendCpu(deployment.database) : null;
    const benchCpuBefore = process.cpuUsage();
    const boxBefore = boxBusyMs();
    const receivedBefore = receiver?.received() ?? 0;
    const run = await drive(apis, scenario, options.concurrency, options.seconds);
    const webhooksReceived = receiver ? receiver.received() - receivedBefore : null;
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
    return { run, warmupFlows, instances, benchCpuMs: (benchCpu.user + benchCpu.system) / 1_000, backendCpuMs, boxBusyMs: boxMs, webhooksReceived };
  } finally {
    for (const sampler of samplers) sampler.stop();
    for (const api of apis) api.close();
  }
}

/** Lets the servers' JIT, statement caches and database pages settle; its figures are dropped. */
async function warmUp(apis: ApiClient[], scenario: Scenario, options: Options): Promise<number> {
  if (options.warmupSeconds === 0) return 0;
  log(`warming up for ${options.warmupSeconds} s`);
  const warmup = await drive(apis, scenario, options.concurrency, options.warmupSeconds);
  if (warmup.record.errors > 0) log(`warm-up errors: ${warmup.record.errors}; first: ${warmup.record.firstError}`);
  return warmup.record.flows.length;
}

/** Zeroes the in-server statement counts so they cover the measured run only; the signal is handled on the next loop turn. */
async function resetQueryCounters(servers: BenchServer[]): Promise<void> {
  for (const server of servers) process.kill(server.pid, 'SIGUSR2');
  await new Promise((resolve) => setTimeout(resolve, 200));
}

/** Query counts need every backend gone (statistics are flushed at disconnect): call after the servers stop. */
async function postgresFigures(deployment: Deployment, measured: Measured): Promise<PostgresFigures> {
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
