import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Connection } from './db.ts';
import { openSqliteStore } from './sqlite.ts';
import { runText } from './statements.ts';

const INSERT = 'insert into background_jobs (name, next_run_at, last_runner) values (?, ?, ?)';
const READ = 'select name, next_run_at, last_runner, next_run_at as again from background_jobs where name = ?';

let store: Connection | undefined;
afterEach(() => store?.close());

async function openStore(dataDir = mkdtempSync(join(tmpdir(), 'sqlite-direct-'))): Promise<Connection> {
  store = await openSqliteStore(dataDir);
  return store;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('statements run on better-sqlite3 directly (sqlite-direct.ts)', () => {
  it("answer rows keyed by the statement's columns, aliases included", async () => {
    const { db, write } = await openStore();
    await write((tx) => runText(tx, INSERT, ['job', 42, 'runner']));
    expect(await runText(db, READ, ['job'])).toEqual([{ name: 'job', next_run_at: 42, last_runner: 'runner', again: 42 }]);
    expect(await runText(db, READ, ['none'])).toEqual([]);
    // As better-sqlite3 names them: a column called __proto__ is a property, not the row's prototype.
    const [row] = await runText<Record<string, unknown>>(db, 'select 1 as "__proto__", 2 as "toString"', []);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.entries(row ?? {})).toEqual([
      ['__proto__', 1],
      ['toString', 2],
    ]);
  });

  it('never read between the statements of a transaction that holds the connection: they wait for its end', async () => {
    const { db, write } = await openStore();
    let finish: () => void = () => {};
    const held = new Promise<void>((resolve) => (finish = resolve));
    let inserted: () => void = () => {};
    const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
    const writing = write(async (tx) => {
      await runText(tx, INSERT, ['job', 1, 'runner']);
      inserted();
      await held;
      await runText(tx, 'update background_jobs set next_run_at = 2 where name = ?', ['job']);
    });
    await insertedOnce;
    const reading = runText<{ next_run_at: number }>(db, READ, ['job']);
    finish();
    await writing;
    // Run at once, the read would have seen the insert alone (the connection's own uncommitted row).
    expect(await reading).toEqual([expect.objectContaining({ next_run_at: 2 })]);
  });

  it("share one snapshot within a turn of the event loop: another process's commit shows from the next turn, at once to the key check, and a write after a read sees it", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sqlite-direct-'));
    const { db, write } = await openStore(dataDir);
    await write((tx) => runText(tx, INSERT, ['job', 1, 'runner']));
    const cli = new SqliteDatabase(join(dataDir, 'payframe.sqlite3'));
    try {
      const nextRunAt = async () => (await runText<{ next_run_at: number }>(db, READ, ['job']))[0]?.next_run_at;
      expect(await nextRunAt()).toBe(1);
      cli.prepare('update background_jobs set next_run_at = 2').run();
      expect(await nextRunAt()).toBe(1);
      // The key check's question is never answered from that snapshot: a revocation is seen at once.
      expect(store?.changedElsewhere?.()).toBe(true);
      await nextTurn();
      expect(await nextRunAt()).toBe(2);
      cli.prepare('update background_jobs set next_run_at = 3').run();
      // The batch ends the turn's read first: its write lock comes with the newest snapshot.
      await write((tx) => runText(tx, 'update background_jobs set next_run_at = next_run_at + 1', []));
      expect(cli.prepare('select next_run_at from background_jobs').pluck().get()).toBe(4);
    } finally {
      cli.close();
    }
  });
});
