import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from './sqlite.ts';

const FRAME_BYTES = 4096 + 24;
const WAL_HEADER_BYTES = 32;

function walPages(file: string): number {
  return existsSync(`${file}-wal`) ? Math.max(0, (statSync(`${file}-wal`).size - WAL_HEADER_BYTES) / FRAME_BYTES) : 0;
}

function storedRows(file: string): { rows: number[]; integrity: string } {
  const sqlite = new SqliteDatabase(file);
  try {
    const rows = (sqlite.prepare('select count from rate_limits').all() as Array<{ count: number }>).map((row) => row.count);
    return { rows, integrity: sqlite.pragma('integrity_check', { simple: true }) as string };
  } finally {
    sqlite.close();
  }
}

describe('WAL checkpoints on a worker thread', () => {
  it("leaves a command's store (inline) to SQLite's own checkpoints within its COMMITs, and the server's to the worker", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
    const autocheckpoint = async (store: Awaited<ReturnType<typeof openSqliteStore>>) => {
      const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(store.db);
      await store.close();
      return rows[0]?.wal_autocheckpoint;
    };
    expect(await autocheckpoint(await openSqliteStore(dataDir, 'inline'))).toBe(10_000);
    expect(await autocheckpoint(await openSqliteStore(dataDir))).toBe(0);
  });

  it('keeps the WAL near its bound while writers never leave it idle, and loses no row', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
    const file = join(dataDir, 'payframe.sqlite3');
    // Migrated, then closed: the last connection to close removes the WAL, so it starts from nothing.
    await (await openSqliteStore(dataDir)).close();
    const restartAtPages = 200;
    const store = await openSqliteStore(dataDir, { everyMs: 5, restartAtPages });
    const padding = 'x'.repeat(1_000);
    let next = 0;
    // A restarted WAL is written again from its start: its file's size is the furthest it reached.
    let largest = 0;
    // 8,000 rows of 1 KB are 2,000 pages and more of WAL: ten times the bound.
    const writer = async () => {
      while (next < 8_000) {
        const row = next++;
        await store.transaction((tx) => sql`insert into rate_limits (key, count, window_start) values (${`row-${row}-${padding}`}, ${row}, 0)`.execute(tx));
        largest = Math.max(largest, walPages(file));
      }
    };
    await Promise.all(Array.from({ length: 16 }, writer));
    await store.close();
    // The bound, plus what commits while the worker notices and the open batch ends: on a loaded
    // machine the worker thread can wait for a core (1,014 pages were seen at a load average of 5,
    // 1,590 in a whole test run). Unbounded, the WAL would hold every row, over 2,000 pages.
    expect(largest).toBeGreaterThan(restartAtPages / 2);
    expect(largest).toBeLessThan(restartAtPages * 9);
    const { rows, integrity } = storedRows(file);
    expect(integrity).toBe('ok');
    expect(rows.sort((a, b) => a - b)).toEqual(Array.from({ length: 8_000 }, (_, row) => row));
  });

  it('keeps every acknowledged row when the process is killed while checkpoints run', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-crash-'));
    const file = join(dataDir, 'payframe.sqlite3');
    const writerScript = fileURLToPath(new URL('./wal-checkpointer.test-writer.ts', import.meta.url));
    // A checkpoint every millisecond and a restart every 64 pages: the kill lands amid them.
    const child = spawn(process.execPath, ['--import', 'tsx', writerScript, dataDir, '1', '64'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const acknowledged: number[] = [];
    let pending = '';
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      acknowledged.push(...lines.map(Number));
      if (acknowledged.length >= 3_000) child.kill('SIGKILL');
    });
    expect(await exited).toBe('SIGKILL');
    // Checkpoints ran: rows reached the database file, and the WAL started over along the way.
    expect(statSync(file).size).toBeGreaterThan(500 * 1024);
    expect(walPages(file)).toBeLessThan(3_000 / 4);

    const { rows, integrity } = storedRows(file);
    expect(integrity).toBe('ok');
    const stored = new Set(rows);
    expect(acknowledged.filter((row) => !stored.has(row))).toEqual([]);
  });
});
