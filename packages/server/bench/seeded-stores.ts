/**
 * What the benchmarks over one large seeded account share: their store flags, seeding a store (or
 * reusing one seeded before) and cleaning it up, and running each store with the load average
 * around it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@payframe/server/process';
import { createBenchDatabase, dropBenchDatabase, postgresAdminUrl } from './postgres.ts';

/** parseArgs options for the seeded store, to spread into a benchmark's own. */
export const SEEDED_STORE_OPTIONS = {
  charges: { type: 'string', default: '1000000' },
  db: { type: 'string', default: 'both' },
  'postgres-url': { type: 'string' },
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
} as const;

export type SeededStores = {
  charges: number;
  stores: string[];
  /** A store seeded before (account "bench"): SQLite in it, or with `seededUrl` PostgreSQL's master key. */
  seededDir: string | undefined;
  seededUrl: string | undefined;
  postgresUrl: string | null;
};

export function seededStores(values: {
  charges: string;
  db: string;
  'postgres-url'?: string | undefined;
  'data-dir'?: string | undefined;
  'database-url'?: string | undefined;
}): SeededStores {
  const charges = Number(values.charges);
  if (!Number.isSafeInteger(charges) || charges < 1) throw new Error('--charges must be a positive integer');
  const seededDir = values['data-dir'];
  const seededUrl = values['database-url'];
  if (seededUrl && !seededDir) throw new Error('--database-url needs --data-dir (the directory seeded with it)');
  const stores = seededDir ? [seededUrl ? 'postgres' : 'sqlite'] : values.db === 'both' ? ['sqlite', 'postgres'] : [values.db];
  if (!stores.every((store) => store === 'sqlite' || store === 'postgres')) throw new Error('--db must be sqlite, postgres or both');
  return { charges, stores, seededDir, seededUrl, postgresUrl: values['postgres-url'] ?? null };
}

/**
 * Seeds `store` with the account "bench" (unless it was seeded before), hands `measure` the CLI's
 * flags for it, and removes what it made, even when `measure` throws.
 */
export async function withSeededStore<T>(
  plan: SeededStores,
  store: string,
  name: string,
  log: (message: string) => void,
  measure: (storeArgs: string[]) => Promise<T>,
): Promise<T> {
  const { seededDir, seededUrl, charges } = plan;
  const dataDir = seededDir ?? mkdtempSync(join(tmpdir(), `payframe-bench-${name}-`));
  const database = store === 'postgres' && !seededDir ? await createBenchDatabase(await postgresAdminUrl(plan.postgresUrl)) : null;
  const url = seededUrl ?? database?.url;
  const storeArgs = ['--data-dir', dataDir, ...(url ? ['--database-url', url] : [])];
  try {
    if (!seededDir) {
      log(`${store}: seeding ${charges} charges`);
      const seeded = await runCli(['seed', '--account', 'bench', '--charges', String(charges), '--json', ...storeArgs], { timeoutMs: 4 * 60 * 60 * 1000 });
      log(`${store}: ${seeded.stdout.trim()}`);
    }
    return await measure(storeArgs);
  } finally {
    // A large database can take long to drop on a busy machine: the figures still print.
    if (database) await dropBenchDatabase(database).catch((error: unknown) => log(`could not drop ${database.name}: ${String(error)}`));
    if (!seededDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The 1-minute load average: on a shared machine, the context every figure needs. */
const load = () => (loadavg()[0] ?? 0).toFixed(1);

/** Runs each store in turn; its rows, and the load average at the start and end of each. */
export async function eachStore<Row>(stores: readonly string[], run: (store: string) => Promise<Row[]>): Promise<{ rows: Row[]; loads: string }> {
  const rows: Row[] = [];
  const loads: string[] = [];
  for (const store of stores) {
    const before = load();
    rows.push(...(await run(store)));
    loads.push(`${store} ${before} to ${load()}`);
  }
  return { rows, loads: loads.join(', ') };
}
