/**
 * The same load on SQLite ×1, PostgreSQL ×1 and PostgreSQL ×2, one after the other, in one table:
 *
 *   npm run bench -- --matrix [--seconds 15] [--concurrency 32] [--count-queries] …
 *   node --import tsx packages/server/bench/compare.ts [same flags]
 *
 * Each configuration is its own `flows.ts --json` process, so each starts from a fresh database
 * and cleans up after itself; run in sequence because on a small box they would measure each other.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Figures } from './flows.ts';

const FLOWS = fileURLToPath(new URL('./flows.ts', import.meta.url));

type Setup = { db: 'sqlite' | 'postgres'; instances: number };
const SETUPS: Setup[] = [
  { db: 'sqlite', instances: 1 },
  { db: 'postgres', instances: 1 },
  { db: 'postgres', instances: 2 },
];

type Row = { setup: Setup; figures: Figures | null; failure: string | null };

export async function runMatrix(passthrough: string[]): Promise<void> {
  // The embedded store knows nothing of query counting: keep that flag to the PostgreSQL runs.
  const rows: Row[] = [];
  for (const setup of SETUPS) {
    const args = passthrough.filter((arg) => setup.db === 'postgres' || arg !== '--count-queries');
    process.stderr.write(`[matrix] ${label(setup)}\n`);
    rows.push(await runOne(setup, args));
  }
  console.log(formatMatrix(rows));
  if (rows.some((row) => !row.figures || row.figures.errors > 0)) process.exitCode = 1;
}

/** Our flags go last so they win over a --db or --instances passed through by mistake. */
async function runOne(setup: Setup, passthrough: string[]): Promise<Row> {
  return { setup, ...(await runFlows([...passthrough, '--db', setup.db, '--instances', String(setup.instances)])) };
}

/** One `flows.ts --json` run in its own process: its figures, or why there are none. */
export function runFlows(flags: string[]): Promise<{ figures: Figures | null; failure: string | null }> {
  const args = ['--import', 'tsx', FLOWS, ...flags, '--json'];
  return new Promise((resolve) => {
    // stderr passes through (progress and failures); stdout is the one JSON line.
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    // The child handles Ctrl-C itself (same process group); a SIGTERM sent to us alone is passed on.
    const forward = () => child.kill('SIGTERM');
    process.once('SIGTERM', forward);
    child.once('close', (code) => {
      process.off('SIGTERM', forward);
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve({ figures: JSON.parse(line) as Figures, failure: null });
      } catch {
        resolve({ figures: null, failure: `exit code ${code}` });
      }
    });
  });
}

const label = ({ db, instances }: Setup) => `${db === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ×${instances}`;
const ms = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(1));

/** Columns as [header, cell]: one table whatever the setup, n/a where a figure does not apply. */
const COLUMNS: [string, (figures: Figures) => string][] = [
  ['flows/s', (f) => String(f.flowsPerSecond)],
  ['req/s', (f) => String(f.requestsPerSecond)],
  ['flow p50', (f) => ms(f.flowLatencyMs.p50)],
  ['flow p99', (f) => ms(f.flowLatencyMs.p99)],
  ['token p50/p99', (f) => endpoint(f, 'POST /v2/tokens')],
  ['charge p50/p99', (f) => endpoint(f, 'POST /v2/charges')],
  ['capture p50/p99', (f) => endpoint(f, 'POST /v2/charges/capture/:id')],
  ['errors', (f) => String(f.errors)],
  ['peak RSS MB per instance', (f) => f.instances.map((instance) => instance.peakRssMb?.toFixed(0) ?? 'n/a').join(' / ')],
  ['server CPU %', (f) => String(f.serverCpuPercent ?? 'n/a')],
  ['PG CPU %', (f) => String(f.postgres?.backendCpuPercent ?? 'n/a')],
  ['tx/flow', (f) => String(f.postgres?.queriesPerFlow?.transactions ?? 'n/a')],
  ['stmts/flow', (f) => String(f.statements?.statementsPerFlow ?? f.postgres?.queriesPerFlow?.statementsApprox ?? 'n/a')],
  ['others CPU %', (f) => String(f.othersCpuPercent ?? 'n/a')],
  ['load 1m', (f) => String(f.loadAverage1m)],
];

function endpoint(figures: Figures, name: keyof Figures['endpointLatencyMs']): string {
  const latency = figures.endpointLatencyMs[name];
  return `${ms(latency.p50)}/${ms(latency.p99)}`;
}

function formatMatrix(rows: Row[]): string {
  const header = ['setup', ...COLUMNS.map(([name]) => name)];
  const cells = rows.map(({ setup, figures, failure }) => [label(setup), ...COLUMNS.map(([, cell]) => (figures ? cell(figures) : (failure ?? 'failed')))]);
  const widths = header.map((name, column) => Math.max(name.length, ...cells.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  const notes = rows.flatMap(({ setup, figures }) =>
    figures ? [`${label(setup)}: ${figures.targets.map(({ target, pass }) => `${pass ? 'PASS' : 'MISS'} ${target}`).join('; ')}`] : [],
  );
  return [
    'Payframe bench matrix: token → charge → capture (latencies in ms; stmts/flow exact with --count-queries, else approx from pg_stat)',
    '',
    line(header),
    rule,
    ...cells.map(line),
    '',
    ...notes,
  ].join('\n');
}

// Run directly: the arguments are passed to every flows.ts run.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runMatrix(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`[matrix] ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}
