/**
 * PostgreSQL for `npm run bench -- --db postgres`: a throwaway database per run, the CPU of its
 * backends, and what a flow costs the database, from the cumulative statistics views.
 *
 * pg_stat_statements would give exact statement counts, but it needs shared_preload_libraries and
 * so a restart of a server other people are using; the counters below need nothing: whole-run
 * deltas of pg_stat_database (transactions, rows) and pg_stat_user_tables (scans, inserts,
 * updates), taken once every server has exited, when its backends have flushed their statistics.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';

const ENSURE_SCRIPT = fileURLToPath(new URL('../../../scripts/ensure-postgres.sh', import.meta.url));
const NAME_PREFIX = 'payframe_bench_';
const ADMIN_TIMEOUT_MS = 10_000;

/** The admin URL: given, or whatever the project's own script finds (or starts) on this machine. */
export async function postgresAdminUrl(given: string | null): Promise<string> {
  if (given) return given;
  const { stdout } = await promisify(execFile)('bash', [ENSURE_SCRIPT], { timeout: 180_000 });
  const url = stdout.trim().split('\n').pop() ?? '';
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error(`${ENSURE_SCRIPT} printed no postgres:// URL`);
  return url;
}

/** One short-lived connection: the bench's own queries must not sit in the servers' pools. */
async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: ADMIN_TIMEOUT_MS, query_timeout: ADMIN_TIMEOUT_MS });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export type BenchDatabase = { name: string; url: string; adminUrl: string };

/** A fresh, uniquely named database; the creating pid in its name lets a later run sweep it if this one is killed. */
export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `${NAME_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`create database ${pg.escapeIdentifier(name)}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), adminUrl };
}

/** FORCE ends connections a crashed server may have left behind (PostgreSQL 13+). */
export async function dropBenchDatabase(database: BenchDatabase): Promise<void> {
  await withClient(database.adminUrl, (client) => client.query(`drop database if exists ${pg.escapeIdentifier(database.name)} with (force)`));
}

/**
 * Drops bench databases whose creating process is gone (a run killed with SIGKILL cannot clean
 * up), after stopping the servers that run left behind on them.
 */
export async function sweepStaleDatabases(adminUrl: string): Promise<string[]> {
  const { rows } = await withClient(adminUrl, (client) =>
    client.query<{ datname: string }>(`select datname from pg_database where starts_with(datname, $1)`, [NAME_PREFIX]),
  );
  const stale = rows.map((row) => row.datname).filter((name) => !processAlive(Number(name.slice(NAME_PREFIX.length).split('_')[0])));
  for (const name of stale) {
    for (const pid of serversUsing(name)) stop(pid);
    await dropBenchDatabase({ name, url: '', adminUrl });
  }
  return stale;
}

function stop(pid: number): void {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

/** Processes whose command line names the database: only a bench run's servers do (the name is random). */
function serversUsing(name: string): number[] {
  const pids = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
  return pids.filter((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return args.includes('serve') && args.some((arg) => arg.endsWith(`/${name}`));
    } catch {
      return false; // gone meanwhile, or not ours to read
    }
  });
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return true; // not ours to judge: leave it
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Backend processes connected to the bench database (same machine: the URL is loopback). */
export async function backendPids(database: BenchDatabase): Promise<number[]> {
  const { rows } = await withClient(database.adminUrl, (client) =>
    client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [database.name]),
  );
  return rows.map((row) => row.pid);
}

/**
 * A backend flushes its statistics in its exit hooks before it leaves pg_stat_activity, so once
 * none is left every transaction of the run is counted.
 */
export async function waitForNoBackends(database: BenchDatabase, timeoutMs = 10_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if ((await backendPids(database)).length === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------------

type DatabaseCounters = { commits: number; rollbacks: number; rowsReturned: number; rowsFetched: number; deadlocks: number };
type TableCounters = { seqScans: number; idxScans: number; inserts: number; updates: number; hotUpdates: number; deletes: number };
export type DatabaseStats = { database: DatabaseCounters; tables: Record<string, TableCounters> };

/** Reads the counters; the table view is per database, so it connects to the bench database itself. */
export async function readStats(database: BenchDatabase): Promise<DatabaseStats> {
  const {
    rows: [row],
  } = await withClient(database.adminUrl, (client) =>
    client.query<Record<keyof DatabaseCounters, string>>(
      `select xact_commit as commits, xact_rollback as rollbacks, tup_returned as "rowsReturned",
              tup_fetched as "rowsFetched", deadlocks
         from pg_stat_database where datname = $1`,
      [database.name],
    ),
  );
  if (!row) throw new Error(`no statistics for database ${database.name}`);
  const { rows: tableRows } = await withClient(database.url, (client) =>
    client.query<{ table: string } & Record<keyof TableCounters, string | null>>(
      `select relname as "table", seq_scan as "seqScans", idx_scan as "idxScans", n_tup_ins as inserts,
              n_tup_upd as updates, n_tup_hot_upd as "hotUpdates", n_tup_del as deletes
         from pg_stat_user_tables`,
    ),
  );
  const tables = Object.fromEntries(tableRows.map(({ table, ...counters }) => [table, numbers(counters)]));
  return { database: numbers(row), tables };
}

/** int8 columns arrive as strings; a table never index-scanned has a null idx_scan. */
function numbers<K extends string>(row: Record<K, string | null>): Record<K, number> {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value ?? 0)])) as Record<K, number>;
}

export type TableCost = { table: string; scans: number; inserts: number; updates: number; deletes: number };
export type QueryCounts = {
  /** Completed flows the counters are divided by (warm-up included: the counters cover the whole run). */
  flows: number;
  transactions: number;
  rollbacks: number;
  /** Index + sequential scans + rows inserted: one per simple statement, more for joins and foreign-key checks. */
  statementsApprox: number;
  inserts: number;
  updates: number;
  hotUpdates: number;
  deletes: number;
  rowsRead: number;
  deadlocks: number;
  byTable: TableCost[];
};

/** Whole-run deltas divided by flows. Boot (migrations, the CLI's key) is in them too: a few dozen transactions. */
export function queryCountsPerFlow(before: DatabaseStats, after: DatabaseStats, flows: number): QueryCounts {
  const per = (value: number) => Math.round((100 * value) / Math.max(flows, 1)) / 100;
  const db = (key: keyof DatabaseCounters) => after.database[key] - before.database[key];
  const byTable = Object.entries(after.tables).map(([table, counters]) => {
    const base = before.tables[table];
    const delta = (key: keyof TableCounters) => counters[key] - (base?.[key] ?? 0);
    return {
      table,
      scans: delta('seqScans') + delta('idxScans'),
      inserts: delta('inserts'),
      updates: delta('updates'),
      hotUpdates: delta('hotUpdates'),
      deletes: delta('deletes'),
    };
  });
  const total = (key: 'scans' | 'inserts' | 'updates' | 'hotUpdates' | 'deletes') => byTable.reduce((sum, table) => sum + table[key], 0);
  return {
    flows,
    transactions: per(db('commits') + db('rollbacks')),
    rollbacks: per(db('rollbacks')),
    statementsApprox: per(total('scans') + total('inserts')),
    inserts: per(total('inserts')),
    updates: per(total('updates')),
    hotUpdates: per(total('hotUpdates')),
    deletes: per(total('deletes')),
    rowsRead: per(db('rowsReturned') + db('rowsFetched')),
    deadlocks: db('deadlocks'),
    byTable: byTable
      .map(({ table, scans, inserts, updates, deletes }) => ({ table, scans: per(scans), inserts: per(inserts), updates: per(updates), deletes: per(deletes) }))
      .filter((table) => table.scans + table.inserts + table.updates + table.deletes > 0)
      .sort((a, b) => b.scans + b.inserts + b.updates - (a.scans + a.inserts + a.updates)),
  };
}

export function formatQueryCounts(counts: QueryCounts): string[] {
  const table = ({ table, scans, inserts, updates, deletes }: TableCost) =>
    `${table} ${scans} scans/${inserts} ins/${updates} upd${deletes ? `/${deletes} del` : ''}`;
  return [
    `  per flow       ${counts.transactions} transactions, ${counts.statementsApprox} statements (approx), ${counts.inserts} inserts, ` +
      `${counts.updates} updates (${counts.hotUpdates} HOT), ${counts.deletes} deletes, ${counts.rowsRead} rows read` +
      `  [pg_stat deltas over ${counts.flows} flows incl. warm-up; ${counts.rollbacks} rollbacks/flow, ${counts.deadlocks} deadlocks]`,
    `  by table       ${counts.byTable.map(table).join('; ')}`,
  ];
}
