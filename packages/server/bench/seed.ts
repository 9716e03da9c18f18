/**
 * `npm run bench:seed`: `payframe seed` on a fresh SQLite store, then SQLite's own floor for the
 * same rows: every row the seed wrote, copied into a fresh file of the same schema by a bare loop
 * of prepared inserts, one transaction per table, no JavaScript building anything. Row by row, the
 * seed cannot beat that floor, so it shows how much of the seed's time is the store's own work; the
 * floor once more without the secondary indexes shows what their upkeep costs.
 *
 *   --charges N   charges to seed (default 100000)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runCli } from '@payframe/server/process';
import Database from 'better-sqlite3';

const TARGET_PER_SECOND = 20_000;
/** In the order their foreign keys need. */
const TABLES = ['accounts', 'tokens', 'charges', 'refunds', 'events'];

const { values } = parseArgs({ options: { charges: { type: 'string', default: '100000' } }, strict: true });
const charges = Number(values.charges);
if (!Number.isSafeInteger(charges) || charges < 1) throw new Error('--charges must be a positive integer');

const dir = mkdtempSync(join(tmpdir(), 'payframe-bench-seed-'));
try {
  const load = loadavg()[0]!;
  const seeded = JSON.parse(
    (await runCli(['seed', '--account', 'bench', '--charges', String(charges), '--json', '--data-dir', join(dir, 'seeded')], { timeoutMs: 4 * 60 * 60 * 1000 }))
      .stdout,
  );
  const seededFile = join(dir, 'seeded', 'payframe.sqlite3');
  const floor = copyRows(seededFile, join(dir, 'floor.sqlite3'), true);
  const bare = copyRows(seededFile, join(dir, 'bare.sqlite3'), false);
  const rate = (ms: number) => Math.round((charges * 1000) / ms);
  console.log(
    [
      `Payframe bench:seed, ${charges} charges on SQLite (load average ${load.toFixed(2)} before)`,
      '',
      '| run | charges/s | wall s | CPU s |',
      '|---|---|---|---|',
      `| payframe seed | ${seeded.chargesPerSecond} | ${(seeded.ms / 1000).toFixed(1)} | ${(seeded.cpuMs / 1000).toFixed(1)} |`,
      `| SQLite floor: the same rows, bare inserts | ${rate(floor.ms)} | ${(floor.ms / 1000).toFixed(1)} | ${(floor.cpuMs / 1000).toFixed(1)} |`,
      `| the floor without secondary indexes | ${rate(bare.ms)} | ${(bare.ms / 1000).toFixed(1)} | ${(bare.cpuMs / 1000).toFixed(1)} |`,
      '',
      `target ≥ ${TARGET_PER_SECOND} charges/s: ${seeded.chargesPerSecond >= TARGET_PER_SECOND ? 'PASS' : 'MISS'}`,
    ].join('\n'),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Copies every seeded row into an empty file with the store's schema and the seed's pragmas, timed
 * as the seed is: its last checkpoint, at close, left out.
 */
function copyRows(from: string, to: string, withIndexes: boolean): { ms: number; cpuMs: number } {
  const source = new Database(from, { readonly: true });
  const target = new Database(to);
  target.pragma('journal_mode = WAL');
  target.pragma('synchronous = NORMAL');
  target.pragma('cache_size = -1048576');
  target.pragma('wal_autocheckpoint = 10000');
  const schema = source
    .prepare("select sql from sqlite_master where sql is not null and name not like 'sqlite_%' and (type = 'table' or ?) order by type = 'table' desc")
    .pluck()
    .all(withIndexes ? 1 : 0) as string[];
  for (const statement of schema) target.exec(statement);
  const tables = TABLES.map((table) => {
    const columns = source
      .prepare(`select * from ${table} limit 1`)
      .columns()
      .map((column) => `"${column.name}"`);
    const insert = target.prepare(`insert into ${table} (${columns.join(',')}) values (${columns.map(() => '?').join(',')})`);
    return { insert, rows: source.prepare(`select * from ${table}`).raw().all() as unknown[][] };
  });
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (const { insert, rows } of tables) {
    target.transaction(() => {
      for (const row of rows) insert.run(row);
    })();
  }
  const used = process.cpuUsage(cpu);
  const ms = performance.now() - started;
  source.close();
  target.close();
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}
