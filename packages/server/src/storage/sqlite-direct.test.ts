import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Connection } from './db.ts';
import { openSqliteStore } from './sqlite.ts';
import { runText } from './statements.ts';

const INSERT = 'insert into background_jobs (name, next_run_at, last_runner) values (?, ?, ?)';
const READ = 'select name, next_run_at, last_runner, next_run_at as again from background_jobs where name = ?';

let store: Connection | undefined;
afterEach(() => store?.close());

async function openStore(): Promise<Connection> {
  store = await openSqliteStore(mkdtempSync(join(tmpdir(), 'sqlite-direct-')));
  return store;
}

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
});
