/**
 * PostgreSQL's own floor: pgbench's built-in TPC-B on the same server the bench uses, in a scratch
 * database of its own (`pgbench -i -s 4`), then `pgbench -c 8 -j 2 -T 8 -M prepared`. Its
 * transactions a second are what this server commits for a small read-write transaction mix on
 * this host at the moment of the run; Payframe's flows/s are judged as a ratio to it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type BenchDatabase, createBenchDatabase, dropBenchDatabase } from './postgres.ts';

const run = promisify(execFile);
const INIT_ARGS = ['-i', '-s', '4', '-q'];
const RUN_ARGS = ['-c', '8', '-j', '2', '-T', '8', '-M', 'prepared'];
const TIMEOUT_MS = 120_000;

export type Pgbench = { database: BenchDatabase; measure(): Promise<number>; drop(): Promise<void> };

/** A scratch database initialised for TPC-B; `measure()` runs it once and answers its tps. */
export async function preparePgbench(adminUrl: string): Promise<Pgbench> {
  const database = await createBenchDatabase(adminUrl);
  try {
    await run('pgbench', [...INIT_ARGS, database.url], { timeout: TIMEOUT_MS });
  } catch (error) {
    await dropBenchDatabase(database);
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(missing ? 'pgbench is not installed (Debian: apt-get install postgresql-client)' : `pgbench -i failed: ${(error as Error).message}`);
  }
  return {
    database,
    async measure() {
      const { stdout } = await run('pgbench', [...RUN_ARGS, database.url], { timeout: TIMEOUT_MS });
      const match = /^tps = ([\d.]+) \(without initial connection time\)/m.exec(stdout);
      if (!match?.[1]) throw new Error(`pgbench printed no tps:\n${stdout}`);
      return Math.round(Number(match[1]) * 10) / 10;
    },
    drop: () => dropBenchDatabase(database),
  };
}
