import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommit, GroupCommitSqliteDialect } from './group-commit.ts';

type Db = { items: { name: string } };

function open() {
  const file = join(mkdtempSync(join(tmpdir(), 'group-commit-')), 'test.sqlite3');
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec('create table items (name text not null)');
  const group = new GroupCommit(sqlite);
  const db = new Kysely<Db>({ dialect: new GroupCommitSqliteDialect({ database: sqlite }, group) });
  // A second connection sees only what is committed.
  const observer = new SqliteDatabase(file, { readonly: true });
  const committed = () => (observer.prepare('select name from items order by name').all() as Array<{ name: string }>).map((row) => row.name);
  return { db, group, committed, close: () => (observer.close(), db.destroy()) };
}

let close: (() => Promise<void>) | undefined;
afterEach(() => close?.());

describe('group commit', () => {
  it('acknowledges a transaction only once a commit has made it visible to other connections', async () => {
    const store = open();
    close = store.close;
    await store.db.transaction().execute((tx) => tx.insertInto('items').values({ name: 'a' }).execute());
    expect(store.committed()).toEqual([]);
    await store.group.durable();
    expect(store.committed()).toEqual(['a']);
  });

  it('makes concurrent transactions durable together, and a rolled-back one leaves the others intact', async () => {
    const store = open();
    close = store.close;
    const names = ['a', 'b', 'c', 'd', 'e'];
    const results = await Promise.allSettled(
      names.map(async (name) => {
        await store.db.transaction().execute(async (tx) => {
          await tx.insertInto('items').values({ name }).execute();
          if (name === 'c') throw new Error('rolled back');
        });
        await store.group.durable();
      }),
    );
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(store.committed()).toEqual(['a', 'b', 'd', 'e']);
  });

  it('flushNow commits an open batch that nobody waits for, as on shutdown', async () => {
    const store = open();
    close = store.close;
    await store.db.transaction().execute((tx) => tx.insertInto('items').values({ name: 'z' }).execute());
    store.group.flushNow();
    expect(store.committed()).toEqual(['z']);
  });
});
