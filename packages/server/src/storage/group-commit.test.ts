import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { atomically } from './atomically.ts';
import { GroupCommit, GroupCommitSqliteDialect } from './group-commit.ts';
import { type SyncWal, walSyncer } from './wal-sync.ts';

type Db = { items: { name: string } };

let close: (() => Promise<void>) | undefined;
afterEach(() => close?.());

function open(sync?: SyncWal) {
  const file = join(mkdtempSync(join(tmpdir(), 'group-commit-')), 'test.sqlite3');
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.exec('create table items (name text not null)');
  const wal = walSyncer(`${file}-wal`);
  const group = new GroupCommit(sqlite, sync ?? wal.sync);
  const dialect = new GroupCommitSqliteDialect({ database: sqlite }, group);
  const db = new Kysely<Db>({ dialect });
  // A second connection sees only what is committed.
  const observer = new SqliteDatabase(file, { readonly: true });
  const committed = () => (observer.prepare('select name from items order by name').all() as Array<{ name: string }>).map((row) => row.name);
  const insert = (name: string) => db.transaction().execute((tx) => tx.insertInto('items').values({ name }).execute());
  close = () => {
    observer.close();
    wal.close();
    return db.destroy();
  };
  return { db, dialect, group, committed, insert };
}

/** A store whose first batch ('a') has committed and whose sync has begun and is held: `ack` is that batch's acknowledgement. */
async function batchAwaitingSync() {
  const syncs = heldSyncs();
  const store = open(syncs.sync);
  await store.insert('a');
  const syncStarted = syncs.nextCall();
  const ack = store.group.durable();
  await syncStarted;
  return { syncs, store, ack };
}

/** A sync that completes only when the test says so, as a slow disk would. */
function heldSyncs() {
  const calls: Array<{ complete(): void; fail(error: Error): void }> = [];
  let called: (() => void) | undefined;
  const sync: SyncWal = () =>
    new Promise<void>((resolve, reject) => {
      calls.push({ complete: resolve, fail: reject });
      called?.();
    });
  const nextCall = () => new Promise<void>((resolve) => (called = resolve));
  return { sync, calls, nextCall };
}

/** A statement SQLite refuses (the column is NOT NULL). */
function insertRefused(db: Kysely<Db>) {
  return db
    .insertInto('items')
    .values({ name: null as unknown as string })
    .execute();
}

/** Whether `promise` has settled by the time the event loop has turned once more. */
function settled(promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setImmediate(() => resolve(false))),
  ]);
}

describe('group commit', () => {
  it('acknowledges a transaction only once a commit has made it visible to other connections', async () => {
    const store = open();
    await store.insert('a');
    expect(store.committed()).toEqual([]);
    await store.group.durable();
    expect(store.committed()).toEqual(['a']);
  });

  it('makes concurrent transactions durable together, and a rolled-back one leaves the others intact', async () => {
    const store = open();
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

  it('runs a write without a savepoint: a statement that fails undoes itself alone, as on PostgreSQL', async () => {
    const store = open();
    await store.insert('b');
    const write = store.dialect.write(store.db, async (tx) => {
      await tx.insertInto('items').values({ name: 'a' }).execute();
      await insertRefused(tx);
    });
    await expect(write).rejects.toThrow(/NOT NULL/);
    await store.group.durable();
    expect(store.committed()).toEqual(['a', 'b']);
  });

  it('makes a part of a write all or nothing with atomically, in a savepoint of its own', async () => {
    const store = open();
    // Kysely opens the connection on its first query: the store's migrations, in the server.
    await store.db.selectFrom('items').select('name').execute();
    await store.dialect.write(store.db, async (tx) => {
      await tx.insertInto('items').values({ name: 'a' }).execute();
      const part = atomically<Db, void>(tx, async (inner) => {
        await inner.insertInto('items').values({ name: 'b' }).execute();
        await insertRefused(inner);
      });
      await expect(part).rejects.toThrow(/NOT NULL/);
      await atomically<Db, unknown>(tx, (inner) => inner.insertInto('items').values({ name: 'c' }).execute());
    });
    await store.group.durable();
    expect(store.committed()).toEqual(['a', 'c']);
  });

  it('acknowledges a batch only after a sync that began after its COMMIT has completed', async () => {
    const { syncs, store, ack: ackA } = await batchAwaitingSync();
    // Committed (other connections see it) but not yet on disk: no acknowledgement.
    expect(store.committed()).toEqual(['a']);
    expect(await settled(ackA)).toBe(false);
    // Asked after the COMMIT, with no batch open: waits for the sync in flight.
    const ackAgain = store.group.durable();

    // B ends while the first sync runs: its batch waits to commit until that sync is done, then
    // commits and is acknowledged by the sync that begins after its COMMIT.
    await store.insert('b');
    const ackB = store.group.durable();
    expect(await settled(ackB)).toBe(false);
    expect(store.committed()).toEqual(['a']);
    expect(syncs.calls).toHaveLength(1);

    const secondSync = syncs.nextCall();
    syncs.calls[0]!.complete();
    await Promise.all([ackA, ackAgain, secondSync]);
    expect(store.committed()).toEqual(['a', 'b']);
    expect(await settled(ackB)).toBe(false);
    syncs.calls[1]!.complete();
    await ackB;
    expect(syncs.calls).toHaveLength(2);
  });

  it('fails the waiters of a failed sync, and acknowledges nothing after it', async () => {
    const { syncs, store, ack: ackA } = await batchAwaitingSync();
    await store.insert('b');
    const ackB = store.group.durable();
    syncs.calls[0]!.fail(new Error('EIO'));
    await expect(ackA).rejects.toThrow('EIO');
    await expect(ackB).rejects.toThrow('EIO');
    await store.insert('c');
    await expect(store.group.durable()).rejects.toThrow('EIO');
    expect(syncs.calls).toHaveLength(1);
  });

  it('begins no sync for a commit nobody waits for (the request log), and the next wait covers it', async () => {
    const syncs = heldSyncs();
    const store = open(syncs.sync);
    await store.insert('log');
    // The batch commits at the end of the event loop's turn (setImmediate), nobody waiting for it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.committed()).toEqual(['log']);
    expect(syncs.calls).toHaveLength(0);
    const sync = syncs.nextCall();
    const ack = store.group.durable();
    await sync;
    expect(await settled(ack)).toBe(false);
    syncs.calls[0]!.complete();
    await ack;
    expect(syncs.calls).toHaveLength(1);
  });

  it('drain commits an open batch that nobody waits for and resolves once it is synced, as on shutdown', async () => {
    const syncs = heldSyncs();
    const store = open(syncs.sync);
    await store.insert('z');
    const sync = syncs.nextCall();
    const drained = store.group.drain();
    expect(store.committed()).toEqual(['z']);
    await sync;
    expect(await settled(drained)).toBe(false);
    syncs.calls[0]!.complete();
    await drained;
  });

  it('reports its one connection as a pool: in use while a transaction holds it, with the transactions waiting behind it', async () => {
    const { db, dialect } = open();
    expect(dialect.poolStats()).toEqual({ total: 1, idle: 1, waiting: 0 });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered = () => {};
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = db.transaction().execute(async (tx) => {
      entered();
      await held;
      await tx.insertInto('items').values({ name: 'first' }).execute();
    });
    await inside;
    const second = db.transaction().execute((tx) => tx.insertInto('items').values({ name: 'second' }).execute());
    const third = db.transaction().execute((tx) => tx.insertInto('items').values({ name: 'third' }).execute());
    // The mutex's queue is reached a few microtasks in.
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(dialect.poolStats()).toEqual({ total: 1, idle: 0, waiting: 2 });
    release();
    await Promise.all([first, second, third]);
    expect(dialect.poolStats()).toEqual({ total: 1, idle: 1, waiting: 0 });
  });
});
