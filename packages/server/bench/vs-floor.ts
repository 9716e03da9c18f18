/**
 * `npm run bench -- --vs-floor [--store sqlite|postgres] [--scenario get|tokens|flow] [--seconds 8]`:
 * each scenario as a ratio to the floor of the same run, since this host's speed drifts too much
 * within an hour for absolute figures to be compared.
 *
 * For each scenario (all three unless --scenario names one): the HTTP floor (floor.ts: a bare
 * node:http server answering a real charge's bytes, driven by the same load generator and
 * scenario), the scenario against real servers (flows.ts in its own process, a fresh store), the
 * floor again; the ratio is the scenario's requests/s over the mean of the two floors. On
 * PostgreSQL the flow also runs on two instances, and pgbench's TPC-B (pgbench.ts) is measured
 * before, between and after the flow runs: flows/s over the mean tps around each.
 *
 * --runs N repeats the whole measurement N times and ends with each target's verdict per run, and
 * whether it held on every one (issue 29 is done when every target holds on three runs in a row).
 */

import { realChargeAnswer } from './charge-answer.ts';
import { runFlows } from './compare.ts';
import { log } from './deployment.ts';
import { FLOOR_TARGETS, type FloorRun, measureFloor } from './floor.ts';
import type { Figures } from './flows.ts';
import type { ScenarioName } from './load.ts';
import type { Options } from './options.ts';
import { type Pgbench, preparePgbench } from './pgbench.ts';
import { postgresAdminUrl } from './postgres.ts';

const FLOOR_WARMUP_S = 2;
const FLOOR_SECONDS = { min: 6, max: 10 };

type Setup = { scenario: ScenarioName; instances: number };

export type VsFloorRow = {
  scenario: ScenarioName;
  instances: number;
  requestsPerSecond: number | null;
  flowsPerSecond: number | null;
  floorBefore: FloorRun;
  floorAfter: FloorRun;
  floorMean: number;
  ratio: number | null;
  peakRssMb: number | null;
  serverCpuMsPerRequest: number | null;
  errors: number | null;
  failure: string | null;
  /** PostgreSQL flows only: pgbench tps before and after, and flows/s over their mean. */
  pgbench?: { before: number; after: number; mean: number; ratio: number | null };
  loadAverage1m: number | null;
};

export type VsFloorReport = { store: Options['db']; concurrency: number; seconds: number; floorSeconds: number; answerBytes: number; rows: VsFloorRow[] };

const round3 = (value: number) => Math.round(value * 1_000) / 1_000;

/** The flags each flows.ts child gets: the caller's, less the ones this run decides per setup. */
function passthrough(argv: string[]): string[] {
  const decided = new Set(['--vs-floor', '--runs', '--json', '--scenario', '--instances', '--seconds', '--matrix', '--webhook']);
  const withValue = new Set(['--runs', '--scenario', '--instances', '--seconds']);
  const kept: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    const name = arg.split('=')[0] ?? arg;
    if (!decided.has(name)) kept.push(arg);
    else if (withValue.has(name) && !arg.includes('=')) index++;
  }
  return kept;
}

export async function runVsFloor(options: Options, argv: string[]): Promise<void> {
  const scenarioGiven = argv.some((arg) => arg === '--scenario' || arg.startsWith('--scenario='));
  const scenarios: ScenarioName[] = scenarioGiven ? [options.scenario] : ['get', 'tokens', 'flow'];
  const setups: Setup[] = scenarios.map((scenario) => ({ scenario, instances: 1 }));
  if (options.db === 'postgres' && scenarios.includes('flow')) setups.push({ scenario: 'flow', instances: 2 });
  const floorSeconds = Math.min(FLOOR_SECONDS.max, Math.max(FLOOR_SECONDS.min, options.seconds));
  const context = { options, flags: passthrough(argv), floorSeconds };

  log('reading a real GET /v2/charges/:id answer for the floor server');
  const body = await realChargeAnswer();
  const pgbench = options.db === 'postgres' && scenarios.includes('flow') ? await preparePgbench(await postgresAdminUrl(options.postgresUrl)) : null;
  const reports: VsFloorReport[] = [];
  try {
    for (let run = 1; run <= options.runs; run++) {
      if (options.runs > 1) log(`run ${run} of ${options.runs}`);
      const report = await measureRun(setups, { ...context, body }, pgbench);
      reports.push(report);
      if (!options.json) console.log(`${options.runs > 1 ? `Run ${run} of ${options.runs}\n` : ''}${formatVsFloor(report)}\n`);
    }
  } finally {
    await pgbench?.drop();
  }
  if (options.json) console.log(JSON.stringify(options.runs > 1 ? reports : reports[0]));
  else if (options.runs > 1) console.log(formatRuns(reports));
  if (reports.some((report) => report.rows.some((row) => row.failure !== null || (row.errors ?? 0) > 0))) process.exitCode = 1;
}

/** Every setup once, each between its two floors; pgbench before the first PostgreSQL flow and after each. */
async function measureRun(setups: Setup[], context: Context, pgbench: Pgbench | null): Promise<VsFloorReport> {
  const { options, body, floorSeconds } = context;
  const rows: VsFloorRow[] = [];
  // Adjacent flow runs share the pgbench measurement between them.
  let tpsBefore: number | null = null;
  for (const setup of setups) {
    if (pgbench && setup.scenario === 'flow' && tpsBefore === null) tpsBefore = await measurePgbench(pgbench);
    const row = await measureSetup(setup, context);
    rows.push(row);
    if (pgbench && setup.scenario === 'flow' && tpsBefore !== null) {
      const after = await measurePgbench(pgbench);
      const mean = Math.round(((tpsBefore + after) / 2) * 10) / 10;
      row.pgbench = { before: tpsBefore, after, mean, ratio: row.flowsPerSecond === null ? null : round3(row.flowsPerSecond / mean) };
      tpsBefore = after;
    }
  }
  return { store: options.db, concurrency: options.concurrency, seconds: options.seconds, floorSeconds, answerBytes: Buffer.byteLength(body), rows };
}

async function measurePgbench(pgbench: Pgbench): Promise<number> {
  log('pgbench TPC-B (-c 8 -j 2 -T 8 -M prepared)');
  return pgbench.measure();
}

type Context = { options: Options; flags: string[]; body: string; floorSeconds: number };

async function measureSetup(setup: Setup, context: Context): Promise<VsFloorRow> {
  const { options, flags, body, floorSeconds } = context;
  const floor = () => {
    log(`floor: bare node:http server, ${setup.scenario} scenario, ${floorSeconds} s`);
    return measureFloor({ scenario: setup.scenario, body, concurrency: options.concurrency, warmupSeconds: FLOOR_WARMUP_S, seconds: floorSeconds });
  };
  const floorBefore = await floor();
  log(`scenario ${setup.scenario} on ${options.db} ×${setup.instances}`);
  const { figures, failure } = await runFlows([
    ...flags,
    '--scenario',
    setup.scenario,
    '--instances',
    String(setup.instances),
    '--seconds',
    String(options.seconds),
  ]);
  const floorAfter = await floor();
  const floorMean = Math.round(((floorBefore.requestsPerSecond + floorAfter.requestsPerSecond) / 2) * 10) / 10;
  return {
    ...setup,
    ...scenarioFigures(figures),
    floorBefore,
    floorAfter,
    floorMean,
    ratio: figures ? round3(figures.requestsPerSecond / floorMean) : null,
    failure,
  };
}

function scenarioFigures(figures: Figures | null) {
  if (!figures) return { requestsPerSecond: null, flowsPerSecond: null, peakRssMb: null, serverCpuMsPerRequest: null, errors: null, loadAverage1m: null };
  const cpuMs = figures.serverCpuMsPerFlow === null ? null : round3((figures.serverCpuMsPerFlow * figures.flows) / Math.max(figures.requests, 1));
  return {
    requestsPerSecond: figures.requestsPerSecond,
    flowsPerSecond: figures.flowsPerSecond,
    peakRssMb: figures.serverPeakRssMb,
    serverCpuMsPerRequest: cpuMs,
    errors: figures.errors,
    loadAverage1m: figures.loadAverage1m,
  };
}

const TITLES: Record<ScenarioName, string> = { get: 'GET /v2/charges/:id', tokens: 'POST /v2/tokens', flow: 'token → charge → capture' };

function targetText(row: VsFloorRow): string {
  const ratio = FLOOR_TARGETS[row.scenario];
  return row.scenario === 'flow' && row.instances === 1 ? `≥ ${ratio}, RSS < ${FLOOR_TARGETS.flowRssMb} MB` : `≥ ${ratio}`;
}

function targetOf(row: VsFloorRow): { text: string; pass: boolean | null } {
  if (row.ratio === null) return { text: 'failed', pass: false };
  const ratio = FLOOR_TARGETS[row.scenario];
  const text = targetText(row);
  if (row.scenario !== 'flow' || row.instances > 1) return { text, pass: row.instances > 1 ? null : row.ratio >= ratio };
  const rss = row.peakRssMb !== null && row.peakRssMb < FLOOR_TARGETS.flowRssMb;
  return { text, pass: row.ratio >= ratio && rss };
}

const mark = (pass: boolean | null) => (pass === null ? '' : pass ? 'PASS' : 'MISS');

export function formatVsFloor(report: VsFloorReport): string {
  const header = [
    'scenario',
    'store',
    'req/s',
    'floor before',
    'floor after',
    'floor mean',
    'ratio',
    'target',
    '',
    'peak RSS MB',
    'server CPU ms/req',
    'floor server CPU ms/req',
    'errors',
    'load 1m',
  ];
  const cells = report.rows.map((row) => {
    const target = targetOf(row);
    return [
      TITLES[row.scenario],
      `${report.store} ×${row.instances}`,
      row.requestsPerSecond === null ? (row.failure ?? 'failed') : String(row.requestsPerSecond),
      String(row.floorBefore.requestsPerSecond),
      String(row.floorAfter.requestsPerSecond),
      String(row.floorMean),
      row.ratio === null ? '-' : row.ratio.toFixed(3),
      target.text,
      mark(target.pass),
      row.peakRssMb === null ? '-' : row.peakRssMb.toFixed(0),
      row.serverCpuMsPerRequest === null ? '-' : row.serverCpuMsPerRequest.toFixed(3),
      floorCpu(row),
      String(row.errors ?? '-'),
      String(row.loadAverage1m ?? '-'),
    ];
  });
  const lines = [
    `Payframe bench --vs-floor: ${report.store}, ${report.concurrency} concurrent loops, scenarios ${report.seconds} s and floors ${report.floorSeconds} s ` +
      `(each after ${FLOOR_WARMUP_S} s warm-up); the floor answers ${report.answerBytes} bytes, a real GET /v2/charges/:id answer`,
    '',
    ...table(header, cells),
  ];
  const pgRows = report.rows.filter((row) => row.pgbench);
  if (pgRows.length > 0) {
    const pgHeader = ['flow on PostgreSQL', 'flows/s', 'pgbench tps before', 'after', 'mean', 'flows/s ÷ tps', 'target', ''];
    const pgCells = pgRows.map((row) => {
      const bench = row.pgbench;
      const pass = row.instances === 1 ? (bench?.ratio ?? 0) >= FLOOR_TARGETS.postgresFlowsPerTps : null;
      return [
        `×${row.instances}`,
        String(row.flowsPerSecond ?? '-'),
        String(bench?.before ?? '-'),
        String(bench?.after ?? '-'),
        String(bench?.mean ?? '-'),
        bench?.ratio === null || bench?.ratio === undefined ? '-' : bench.ratio.toFixed(3),
        row.instances === 1 ? `≥ ${FLOOR_TARGETS.postgresFlowsPerTps}` : '≥ ×1',
        mark(pass ?? twoAtLeastOne(pgRows)),
      ];
    });
    lines.push('', ...table(pgHeader, pgCells), '', 'pgbench: -i -s 4 in a scratch database, then -c 8 -j 2 -T 8 -M prepared, on the same PostgreSQL server');
  }
  return lines.join('\n');
}

/** Each target of a run with the figure judged and its verdict (null: reported, not judged). */
function verdicts(report: VsFloorReport): Array<{ target: string; figure: string; pass: boolean | null }> {
  const judged = report.rows.map((row) => {
    const rss = row.scenario === 'flow' && row.peakRssMb !== null ? `, ${row.peakRssMb.toFixed(0)} MB` : '';
    return {
      target: `${TITLES[row.scenario]} ${report.store} ×${row.instances} ${targetText(row)}`,
      figure: row.ratio === null ? 'failed' : `${row.ratio.toFixed(3)}${rss}`,
      pass: targetOf(row).pass,
    };
  });
  const pgRows = report.rows.filter((row) => row.pgbench);
  for (const row of pgRows) {
    const ratio = row.pgbench?.ratio ?? null;
    judged.push({
      target: `flow on PostgreSQL ×${row.instances}: flows/s ÷ pgbench tps ${row.instances === 1 ? `≥ ${FLOOR_TARGETS.postgresFlowsPerTps}` : '≥ ×1'}`,
      figure: ratio === null ? '-' : ratio.toFixed(3),
      pass: row.instances === 1 ? (ratio ?? 0) >= FLOOR_TARGETS.postgresFlowsPerTps : twoAtLeastOne(pgRows),
    });
  }
  return judged.filter((verdict) => verdict.pass !== null);
}

/** The targets across runs: each run's figure and verdict, and whether the target held on all of them. */
export function formatRuns(reports: VsFloorReport[]): string {
  const perRun = reports.map(verdicts);
  const targets = perRun[0]?.map((verdict) => verdict.target) ?? [];
  const header = ['target', ...reports.map((_, index) => `run ${index + 1}`), `held on all ${reports.length}`];
  const cells = targets.map((target, index) => {
    const runs = perRun.map((verdicts) => verdicts[index]);
    const held = runs.every((verdict) => verdict?.pass === true);
    return [target, ...runs.map((verdict) => (verdict ? `${verdict.figure} ${mark(verdict.pass)}` : '-')), held ? 'yes' : 'no'];
  });
  return [`Targets over ${reports.length} runs in a row (each figure against the floor of its own run)`, '', ...table(header, cells)].join('\n');
}

/**
 * The floor server's CPU per request, around the run: beside the scenario's, it says how much of
 * the ratio is the server's own work, when a busy host's scheduler or disk moves the throughputs.
 */
function floorCpu(row: VsFloorRow): string {
  const before = row.floorBefore.serverCpuMsPerRequest;
  const after = row.floorAfter.serverCpuMsPerRequest;
  return before === null || after === null ? '-' : ((before + after) / 2).toFixed(3);
}

/** Two instances are judged against one by the ratio to pgbench around each, which cancels the drift between the runs. */
function twoAtLeastOne(rows: VsFloorRow[]): boolean | null {
  const one = rows.find((row) => row.instances === 1)?.pgbench?.ratio;
  const two = rows.find((row) => row.instances === 2)?.pgbench?.ratio;
  return one === undefined || two === undefined || one === null || two === null ? null : two >= one;
}

function table(header: string[], cells: string[][]): string[] {
  const widths = header.map((name, column) => Math.max(name.length, ...cells.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...cells.map(line)];
}
