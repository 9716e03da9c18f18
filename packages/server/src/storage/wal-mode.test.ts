import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { switchToWal } from './wal-mode.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A store file in rollback mode with one table, and a second connection holding its write lock. */
function lockedStore() {
  const dir = mkdtempSync(join(tmpdir(), 'payframe-wal-mode-'));
  dirs.push(dir);
  const file = join(dir, 'store.sqlite3');
  const setup = new SqliteDatabase(file);
  setup.exec('create table t (x)');
  setup.close();
  const writer = new SqliteDatabase(file);
  writer.exec('begin immediate');
  writer.prepare('insert into t values (1)').run();
  return { file, writer, opener: new SqliteDatabase(file) };
}

describe('switchToWal', () => {
  it('waits for another connection to release the write lock, which SQLite does not wait for', async () => {
    const { file, writer, opener } = lockedStore();
    // SQLite's own answer, busy_timeout notwithstanding: at once, "database is locked".
    expect(() => opener.pragma('journal_mode = WAL')).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    setTimeout(() => writer.exec('commit'), 100);
    await switchToWal(opener, file);
    expect(opener.pragma('journal_mode', { simple: true })).toBe('wal');
    writer.close();
    opener.close();
  });

  it('gives up with SQLite error once the wait is over', async () => {
    const { file, writer, opener } = lockedStore();
    await expect(switchToWal(opener, file, 150)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    writer.exec('rollback');
    writer.close();
    opener.close();
  });
});
