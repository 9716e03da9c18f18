/** What a run's figures are, how they are judged against the targets, and the printed report. */
import type { ProfileSummary } from './cpu-profile.ts';
import { formatProfileSummary } from './cpu-profile.ts';
import { ENDPOINTS, type Endpoint, MAX_ERRORS, type Run, type ScenarioName } from './load.ts';
import type { Options, Store } from './options.ts';
import { formatQueryCounts, type QueryCounts } from './postgres.ts';
import { formatStatementCounts, type StatementCounts } from './query-log.ts';

/**
 * The targets the figures are judged against, at 32 concurrent loops (the PostgreSQL flow target
 * at one instance, the measure of the per-request overhead). Latency, CPU and statement targets
 * are the flow's; get and tokens are judged on throughput, defined on the embedded store.
 */
const TARGETS = {
  perSecond: { flow: { sqlite: 1_500, postgres: 800 }, get: 10_000, tokens: 5_000 },
  flowP99Ms: 40,
  /** Server CPU per flow, summed over the instances (PostgreSQL's own backends not counted). */
  flowCpuMs: { sqlite: 0.6, postgres: 1.2 },
  flowStatements: 7,
  rssMb: 200,
  atConcurrency: 32,
  postgresAtInstances: 1,
} as const;

const TITLES: Record<ScenarioName, string> = {
  flow: 'token → charge → capture',
  get: 'GET /v2/charges/:id (one request a loop)',
  tokens: 'POST /v2/tokens (one request a loop)',
};

export type Target = { target: string; pass: boolean };

export type Latency = { p50: number; p90: number; p99: number; max: number; count: number };

/** Nearest-rank percentiles over the whole sample: the runs are small enough to keep every value. */
export function latency(values: number[]): Latency {
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

export type PostgresFigures = {
  database: string;
  /** Connections per instance; null: the server's default (10). */
  poolSize: number | null;
  backendCpuPercent: number | null;
  backendCpuMsPerFlow: number | null;
  queriesPerFlow: QueryCounts | null;
};

export type Figures = {
  scenario: ScenarioName;
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
  /** With --count-queries: the statements the servers ran (query-counter.mjs). */
  statements?: StatementCounts | undefined;
  targets: Target[];
  profile?: ProfileSummary | undefined;
  /** With --with-webhook: what the receiver got during the measured run. */
  webhooks?: { received: number; receivedPerSecond: number } | undefined;
};

export type InstanceMachine = {
  pid: number;
  readyRssMb: number | null;
  peakRssMb: number | null;
  maxSampledRssMb: number | null;
  cpuMs: number | null;
  exitCode: number | null;
};
export type Machine = { instances: InstanceMachine[]; benchCpuMs: number; backendCpuMs: number | null; boxBusyMs: number | null; loadAverage1m: number };

const round1 = (value: number) => Math.round(value * 10) / 10;
const round1OrNull = (value: number | null) => (value === null ? null : round1(value));
const sumOrNull = (values: (number | null)[]) => (values.includes(null) ? null : values.reduce<number>((sum, value) => sum + (value ?? 0), 0));
const maxOrNull = (values: (number | null)[]) => (values.includes(null) ? null : Math.max(...values.map((value) => value ?? 0)));
export const percentOfCore = (ms: number | null, elapsedS: number) => (ms === null ? null : round1(ms / (10 * elapsedS)));
export const msPerFlow = (ms: number | null, flows: number) => (ms === null || flows === 0 ? null : Math.round((100 * ms) / flows) / 100);

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

export function figuresOf(run: Run, options: Options, machine: Machine): Figures {
  const { record, elapsedS } = run;
  const requests = ENDPOINTS.reduce((sum, endpoint) => sum + record.endpoints[endpoint].length, 0);
  const flowLatencyMs = latency(record.flows);
  const flowsPerSecond = round1(record.flows.length / elapsedS);
  const instances = machine.instances.map((instance, index) => instanceFigures(run, instance, index));
  const serverCpuMs = sumOrNull(machine.instances.map((instance) => instance.cpuMs));
  const peakRssMb = maxOrNull(instances.map((instance) => instance.peakRssMb));
  const cpuMsPerFlow = msPerFlow(serverCpuMs, record.flows.length);
  return {
    scenario: options.scenario,
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
    serverCpuMsPerFlow: cpuMsPerFlow,
    benchCpuPercent: round1(machine.benchCpuMs / (10 * elapsedS)),
    othersCpuPercent: percentOfCore(othersCpuMs(machine, serverCpuMs), elapsedS),
    loadAverage1m: round1(machine.loadAverage1m),
    targets: targetsOf(options, { flowsPerSecond, flowLatencyMs, peakRssMb, cpuMsPerFlow }),
  };
}

/** Box busy time minus ours (servers, their backends, the load generator); null when any part is unknown. */
function othersCpuMs(machine: Machine, serverCpuMs: number | null): number | null {
  if (machine.boxBusyMs === null || serverCpuMs === null) return null;
  return Math.max(0, machine.boxBusyMs - serverCpuMs - (machine.backendCpuMs ?? 0) - machine.benchCpuMs);
}

type Judged = { flowsPerSecond: number; flowLatencyMs: Latency; peakRssMb: number | null; cpuMsPerFlow: number | null };

function targetsOf(options: Options, judged: Judged): Target[] {
  const at = options.concurrency === TARGETS.atConcurrency ? '' : ` (defined at ${TARGETS.atConcurrency} concurrent loops)`;
  const rss = { target: `peak RSS < ${TARGETS.rssMb} MB on every instance`, pass: judged.peakRssMb !== null && judged.peakRssMb < TARGETS.rssMb };
  if (options.scenario !== 'flow') {
    const perSecond = TARGETS.perSecond[options.scenario];
    const note = options.db === 'postgres' ? ' (defined on the embedded store)' : '';
    return [{ target: `≥ ${perSecond} requests/s${at}${note}`, pass: judged.flowsPerSecond >= perSecond }, rss];
  }
  const perSecond = TARGETS.perSecond.flow[options.db];
  const flowsNote =
    options.db === 'postgres'
      ? ` on PostgreSQL${options.instances === TARGETS.postgresAtInstances ? '' : ` (defined for ${TARGETS.postgresAtInstances} instance)`}`
      : '';
  const targets = [
    { target: `≥ ${perSecond} flows/s${flowsNote}${at}`, pass: judged.flowsPerSecond >= perSecond },
    { target: `flow p99 < ${TARGETS.flowP99Ms} ms${at}`, pass: judged.flowLatencyMs.p99 < TARGETS.flowP99Ms },
    rss,
  ];
  const cpuMs = TARGETS.flowCpuMs[options.db];
  targets.push({ target: `server CPU ≤ ${cpuMs} ms per flow`, pass: judged.cpuMsPerFlow !== null && judged.cpuMsPerFlow <= cpuMs });
  return targets;
}

/** Judged once the servers' statement logs are read (--count-queries on PostgreSQL, flow scenario). */
export function statementTargets(options: Options, statements: StatementCounts | undefined): Target[] {
  if (options.scenario !== 'flow' || options.db !== 'postgres' || !statements) return [];
  // A flow's own statements: the background polls run at their own pace, however many flows there are.
  return [
    {
      target: `≤ ${TARGETS.flowStatements} statements per flow (BEGIN/COMMIT included; those its requests send)`,
      pass: statements.requestStatementsPerFlow <= TARGETS.flowStatements,
    },
  ];
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
  const backends = figures.postgres
    ? `, PostgreSQL backends ${figures.postgres.backendCpuPercent ?? 'n/a'} % (${figures.postgres.backendCpuMsPerFlow ?? 'n/a'} ms per flow)`
    : '';
  return (
    `  CPU            servers ${figures.serverCpuPercent ?? 'n/a'} % of a core (${figures.serverCpuMsPerFlow ?? 'n/a'} ms per flow)${backends}, ` +
    `load generator ${figures.benchCpuPercent} %, other processes ${figures.othersCpuPercent ?? 'n/a'} %; ` +
    `1-min load average before the bench ${figures.loadAverage1m}`
  );
}

export function formatReport(figures: Figures): string {
  const mark = (pass: boolean) => (pass ? 'PASS' : 'MISS');
  const lines = [
    `Payframe bench: ${TITLES[figures.scenario]}, ${figures.concurrency} concurrent loops, ${figures.durationS} s (after ${figures.warmupS} s warm-up), Node ${figures.node}`,
    '',
    formatStore(figures),
    `  flows/s        ${figures.flowsPerSecond}  (${figures.flows} flows)`,
    `  requests/s     ${figures.requestsPerSecond}  (${figures.requests} requests)`,
    `  flow latency   p50 ${ms(figures.flowLatencyMs.p50)}  p90 ${ms(figures.flowLatencyMs.p90)}  p99 ${ms(figures.flowLatencyMs.p99)}  max ${ms(figures.flowLatencyMs.max)}`,
    ...ENDPOINTS.filter((endpoint) => figures.endpointLatencyMs[endpoint].count > 0).map((endpoint) => {
      const { p50, p99 } = figures.endpointLatencyMs[endpoint];
      return `  ${endpoint.padEnd(30)} p50 ${ms(p50)}  p99 ${ms(p99)}`;
    }),
    `  errors         ${figures.errors}${figures.errors >= MAX_ERRORS ? ' (stopped early: the server is failing, not slow)' : ''}` +
      `${figures.firstError ? `  first: ${figures.firstError.slice(0, 500)}` : ''}`,
    ...figures.instances.map(formatInstance),
    formatCpu(figures),
    ...(figures.postgres?.queriesPerFlow ? formatQueryCounts(figures.postgres.queriesPerFlow) : []),
    ...(figures.statements ? formatStatementCounts(figures.statements, figures.db) : []),
    '',
    '  targets',
    ...figures.targets.map(({ target, pass }) => `    ${mark(pass)}  ${target}`),
  ];
  if (figures.profile) lines.push('', formatProfileSummary(figures.profile));
  return lines.join('\n');
}
