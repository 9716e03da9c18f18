/**
 * Two configurations of the server measured so that the host's drift cannot decide between them:
 * both run side by side, each on its own fresh store, and the load alternates between them in short
 * slices (A, B, B, A, A, B, …: the order cancels a drift that rises or falls steadily), each driven
 * for `--seconds` in all. Used by `--request-log compare`, `--against`, `--webhook` and
 * `--instances compare`.
 *
 * It suits differences on the request's path, and background work that a side can be made to wait
 * out while the other is driven: `--webhook` (webhook.ts) holds its receiver's answers during the
 * other side's slices, so that no delivery of one side runs in the other's time. What a side spends
 * while the other is driven is measured too (`idleCpuMs`), to show that it is small.
 */
import { type BenchServer, createTestKeys, type Deployment, deploy, log, startServer, stopServer } from './deployment.ts';
import { type ApiClient, apiClient, drive, prepareScenario, type Scenario } from './load.ts';
import type { Options } from './options.ts';
import { cpuMs } from './proc.ts';

export type SideSpec = {
  name: string;
  /** The server's options for this side (the request log on or off). */
  options: Options;
  /** Which build serves: this repository's, or `--against`'s. */
  bin?: 'this' | 'against';
  /** Server processes on the side's store (1 by default); requests alternate between them. */
  instances?: number;
  /** Sets up what the side needs through its API, once the servers are up (a webhook endpoint). */
  setUp?(url: string, secretKey: string): Promise<void>;
  /** Told before each slice whether this side is the one about to be driven. */
  driven?(active: boolean): void;
};

export type SideFigures = {
  name: string;
  requests: number;
  flows: number;
  seconds: number;
  cpuMs: number;
  idleCpuMs: number;
  idleSeconds: number;
  errors: number;
};

type Side = SideFigures & { spec: SideSpec; deployment: Deployment; servers: BenchServer[]; apis: ApiClient[] };

/** The CPU all of a side's servers have used, in ms. */
const sideCpuMs = (side: Side) => side.servers.reduce((sum, server) => sum + (cpuMs(server.pid) ?? 0), 0);

export async function measureSideBySide(options: Options, specs: [SideSpec, SideSpec]): Promise<[SideFigures, SideFigures]> {
  const sides: Side[] = [];
  for (const spec of specs) {
    const deployment = await deploy(spec.options);
    const servers: BenchServer[] = [];
    for (let index = 0; index < (spec.instances ?? 1); index++) {
      const server = await startServer(deployment, index, spec.options, spec.bin);
      log(`${spec.name}: pid ${server.pid} at ${server.url}`);
      servers.push(server);
    }
    sides.push({ name: spec.name, spec, deployment, servers, apis: [], requests: 0, flows: 0, seconds: 0, cpuMs: 0, idleCpuMs: 0, idleSeconds: 0, errors: 0 });
  }
  try {
    const scenarios: Scenario[] = [];
    for (const side of sides) {
      const keys = await createTestKeys(side.deployment, side.spec.bin === 'against' ? (options.against ?? undefined) : undefined);
      await side.spec.setUp?.(side.servers[0]!.url, keys.secretKey);
      side.apis = side.servers.map((server) => apiClient(server.url, keys.secretKey, options.concurrency));
      scenarios.push(await prepareScenario(options.scenario, side.apis, options.concurrency));
    }
    const slice = async (index: number, seconds: number, counted: boolean) => {
      const side = sides[index]!;
      const other = sides[1 - index]!;
      side.spec.driven?.(true);
      other.spec.driven?.(false);
      const before = sideCpuMs(side);
      const otherBefore = sideCpuMs(other);
      const run = await drive(side.apis, scenarios[index]!, options.concurrency, seconds);
      if (!counted) return;
      side.seconds += run.elapsedS;
      side.cpuMs += sideCpuMs(side) - before;
      other.idleCpuMs += sideCpuMs(other) - otherBefore;
      other.idleSeconds += run.elapsedS;
      side.requests += run.record.instances.reduce((sum, instance) => sum + instance.latencies.length, 0);
      side.flows += run.record.flows.length;
      side.errors += run.record.errors;
    };
    for (const [index, side] of sides.entries()) {
      log(`warming up ${side.name} for ${options.warmupSeconds} s`);
      await slice(index, options.warmupSeconds, false);
    }
    const slices = Math.max(2, Math.round(options.seconds / options.sliceSeconds));
    log(`alternating ${slices} slices of ${options.sliceSeconds} s per side, ${options.concurrency} concurrent ${options.scenario} loops`);
    for (let turn = 0; turn < slices; turn++) {
      for (const index of turn % 2 === 0 ? [0, 1] : [1, 0]) await slice(index, options.sliceSeconds, true);
    }
  } finally {
    for (const side of sides) for (const api of side.apis) api.close();
    await Promise.all(sides.flatMap((side) => side.servers.map(stopServer)));
  }
  const figures = sides.map(({ spec: _spec, deployment: _deployment, servers: _servers, apis: _apis, ...figures }): SideFigures => figures);
  if (figures.some((side) => side.errors > 0)) process.exitCode = 1;
  return figures as [SideFigures, SideFigures];
}

/**
 * What each comparison prints: which one it is and how it ran, each side's requests/s and server
 * CPU per request, then its verdicts.
 */
export function sideReport(flag: string, options: Options, sides: readonly [SideFigures, SideFigures], verdicts: string[]): string {
  const how = `${options.scenario} on ${options.db}, ${options.concurrency} concurrent loops, ${sides[0].seconds.toFixed(1)} s per side in alternating slices`;
  return [`Payframe bench ${flag}: ${how}`, '', ...sideTable(sides), '', ...verdicts].join('\n');
}

/** The table of sideReport. */
function sideTable(sides: readonly SideFigures[]): string[] {
  return [
    '| side | requests/s | flows/s | requests | server CPU ms/request | server CPU while the other side is driven | errors |',
    '|---|---|---|---|---|---|---|',
    ...sides.map(
      (side) =>
        `| ${side.name} | ${(side.requests / side.seconds).toFixed(1)} | ${(side.flows / side.seconds).toFixed(1)} | ${side.requests} | ${(side.cpuMs / side.requests).toFixed(3)} | ${(side.idleCpuMs / side.idleSeconds / 10).toFixed(1)} % of a core | ${side.errors} |`,
    ),
  ];
}

/** How much less `measured` served per second than `baseline`, in percent. */
export function throughputLost(measured: SideFigures, baseline: SideFigures): number {
  return (1 - measured.requests / measured.seconds / (baseline.requests / baseline.seconds)) * 100;
}

/** How much more server CPU per request `measured` took than `baseline`, in percent. */
export function cpuAdded(measured: SideFigures, baseline: SideFigures): number {
  return (measured.cpuMs / measured.requests / (baseline.cpuMs / baseline.requests) - 1) * 100;
}

/** What the request log, or one webhook endpoint, may cost the API's throughput at most (issue 29). */
const LOST_TARGET_PERCENT = 10;

/** The verdict line of a cost judged against that bound: `lost` in percent, with `what` cost it. */
export function lostVerdict(what: string, lost: number): string {
  return `throughput lost ${what}: ${lost.toFixed(1)} % (target: at most ${LOST_TARGET_PERCENT} %) ${lost <= LOST_TARGET_PERCENT ? 'PASS' : 'MISS'}`;
}

/** A change in percent with its sign: `+4.6 %`, `-1.1 %`. */
export const signedPercent = (percent: number) => `${percent >= 0 ? '+' : ''}${percent.toFixed(1)} %`;
