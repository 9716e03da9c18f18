/**
 * Reads what query-counter.mjs wrote in each server at exit and turns it into per-flow figures:
 * which statements a flow sends, how often, and how long they take.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Passed to a server as `node --import` (a URL, so the path needs no quoting rules). */
export const QUERY_COUNTER_URL = new URL('./query-counter.mjs', import.meta.url).href;
export const QUERY_COUNTER_PATH = fileURLToPath(QUERY_COUNTER_URL);

type Entry = { text: string; count: number; background: number; failed: number; totalMs: number };
type Log = { pid: number; poolWaits: { count: number; totalMs: number }; overheadMs?: number; statements: Entry[] };

export type StatementShare = { text: string; perFlow: number; meanMs: number; msPerFlow: number; failed: number };
export type StatementCounts = {
  /** Measured run only: the counters are zeroed when it starts. */
  flows: number;
  statementsPerFlow: number;
  /** Of those, the ones sent while serving the flows' requests; the rest is the instances' background work. */
  requestStatementsPerFlow: number;
  /** A flow's statements' times, summed: round trips on PostgreSQL, SQLite's own work on the embedded store. */
  dbMsPerFlow: number;
  /** The counter's own bookkeeping per flow: excluded from dbMsPerFlow, but spent on the servers' main threads. */
  counterMsPerFlow: number;
  poolWaitsPerFlow: number;
  poolWaitMeanMs: number;
  top: StatementShare[];
  /** Instances whose log was missing (killed before it could write). */
  missing: number;
};

const round2 = (value: number) => Math.round(value * 100) / 100;
const round3 = (value: number) => Math.round(value * 1000) / 1000;

export function readQueryLogs(paths: string[], flows: number, top = 12): StatementCounts {
  const logs = paths.filter((path) => existsSync(path)).map((path) => JSON.parse(readFileSync(path, 'utf8')) as Log);
  const merged = new Map<string, Entry>();
  for (const entry of logs.flatMap((log) => log.statements)) {
    const sum = merged.get(entry.text) ?? { text: entry.text, count: 0, background: 0, failed: 0, totalMs: 0 };
    merged.set(entry.text, {
      text: entry.text,
      count: sum.count + entry.count,
      background: sum.background + entry.background,
      failed: sum.failed + entry.failed,
      totalMs: sum.totalMs + entry.totalMs,
    });
  }
  const entries = [...merged.values()];
  // A server that ran flows sent statements: none counted means the counter patched another copy of the driver.
  if (logs.length > 0 && flows > 0 && entries.length === 0)
    throw new Error('--count-queries counted no statement: the server does not use the driver module query-counter.mjs patched');
  const waits = logs.reduce((sum, log) => ({ count: sum.count + log.poolWaits.count, totalMs: sum.totalMs + log.poolWaits.totalMs }), { count: 0, totalMs: 0 });
  const per = (value: number) => round2(value / Math.max(flows, 1));
  const perMs = (ms: number) => round3(ms / Math.max(flows, 1));
  return {
    flows,
    statementsPerFlow: per(entries.reduce((sum, entry) => sum + entry.count, 0)),
    requestStatementsPerFlow: per(entries.reduce((sum, entry) => sum + entry.count - entry.background, 0)),
    dbMsPerFlow: perMs(entries.reduce((sum, entry) => sum + entry.totalMs, 0)),
    counterMsPerFlow: perMs(logs.reduce((sum, log) => sum + (log.overheadMs ?? 0), 0)),
    poolWaitsPerFlow: per(waits.count),
    poolWaitMeanMs: round2(waits.totalMs / Math.max(waits.count, 1)),
    top: entries
      .sort((a, b) => b.totalMs - a.totalMs)
      .slice(0, top)
      .map((entry) => ({
        text: entry.text,
        perFlow: per(entry.count),
        meanMs: round3(entry.totalMs / entry.count),
        msPerFlow: perMs(entry.totalMs),
        failed: entry.failed,
      })),
    missing: paths.length - logs.length,
  };
}

export function formatStatementCounts(counts: StatementCounts, store: 'sqlite' | 'postgres'): string[] {
  const time = store === 'postgres' ? 'of round trips' : "in SQLite's calls on the main thread";
  const waits = store === 'postgres' ? `; ${counts.poolWaitsPerFlow} pool checkouts per flow, mean wait ${counts.poolWaitMeanMs} ms` : '';
  return [
    `  statements     ${counts.statementsPerFlow} per flow (exact, counted in the servers' database clients over the measured run, BEGIN/COMMIT included; ` +
      `${counts.requestStatementsPerFlow} sent serving the flows' requests, ${round2(counts.statementsPerFlow - counts.requestStatementsPerFlow)} by background work), ` +
      `${counts.dbMsPerFlow} ms ${time} per flow (the counter's own ${counts.counterMsPerFlow} ms per flow left out)${waits}` +
      `${counts.missing ? `  (${counts.missing} instance logs missing)` : ''}`,
    '    per flow  mean ms  ms/flow  statement (by total time)',
    ...counts.top.map(
      ({ text, perFlow, meanMs, msPerFlow, failed }) =>
        `    ${perFlow.toFixed(2).padStart(8)}  ${meanMs.toFixed(3).padStart(7)}  ${msPerFlow.toFixed(3).padStart(7)}  ${text.slice(0, 140)}${failed ? `  (${failed} failed)` : ''}`,
    ),
  ];
}
