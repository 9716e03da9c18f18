import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from './index.ts';

/** Upgrading a database that already holds idempotency records keeps them replaying for the secret key. */
describe('003-idempotency-key-kind on an existing database', () => {
  it('keeps every record as the secret key’s and lets both kinds use one key afterwards', async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
    const upTo = (last: string) =>
      new Migrator({ db, provider: { getMigrations: async () => Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name <= last)) } });
    await upTo('002-rate-limits').migrateToLatest();
    const record = {
      account_id: 'a1',
      mode: 'test',
      key: 'refund-1001',
      request_hash: 'h',
      state: 'done',
      response_status: 200,
      response_body: '{}',
      created_at: 1,
      locked_at: 1,
    };
    await db.insertInto('idempotency_keys').values(record).execute();

    const { error } = await upTo('003-idempotency-key-kind').migrateToLatest();
    expect(error).toBeUndefined();
    expect(await db.selectFrom('idempotency_keys').selectAll().execute()).toEqual([{ ...record, key_kind: 'secret' }]);
    await db
      .insertInto('idempotency_keys')
      .values({ ...record, key_kind: 'publishable' })
      .execute();
    await expect(
      db
        .insertInto('idempotency_keys')
        .values({ ...record, key_kind: 'secret' })
        .execute(),
    ).rejects.toThrow(/UNIQUE/);
    await db.destroy();
  });
});
