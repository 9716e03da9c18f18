import { runCli, type ServerProcess, spawnServe } from '@payframe/server/process';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/storage/migrations/index.ts';
import { client, createCharge, TEST_PANS } from './client.ts';
import { queryStore } from './database.ts';
import { createKeys, type Keys, storeArgs, tempDataDir } from './harness.ts';

/**
 * Processes started at the same moment on a fresh store (an empty data directory, or an empty
 * PostgreSQL database in the server-postgres project) all migrate it, and each must find the
 * migrations either done or do them alone: `keys create` is documented to work on a fresh store
 * and while a server runs on it. Before SQLite migrated under its write lock, one of them failed
 * with `table "accounts" already exists` in most rounds.
 */

let servers: ServerProcess[] = [];

afterEach(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  servers = [];
});

/** A server being started, stopped after the test once it is up. */
function serve(args: string[]): Promise<ServerProcess> {
  return spawnServe({ args }).then((server) => {
    servers.push(server);
    return server;
  });
}

/** Waits for every process, and fails with what each one that failed printed (the errors' messages hold their output). */
async function expectAllSucceed(starts: Array<Promise<unknown>>): Promise<void> {
  const settled = await Promise.allSettled(starts);
  const failures = settled.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  expect(failures, failures.join('\n\n')).toEqual([]);
}

async function expectFullyMigrated(dataDir: string): Promise<void> {
  const rows = await queryStore(dataDir, 'select name from kysely_migration order by name');
  expect(rows.map((row) => row.name)).toEqual(Object.keys(MIGRATIONS).sort());
}

/** A charge made with the key's secret key: the key is in the store the server reads. */
async function expectKeyWorks(url: string, keys: Keys): Promise<void> {
  const charge = await createCharge(client(url, keys.secretKey), TEST_PANS.visa, { amount: '500' });
  expect(charge.status).toBe('PENDING');
}

describe('processes starting together on a fresh store', () => {
  for (const round of [1, 2, 3]) {
    it(`round ${round}: one serve and three keys create, all at once`, async () => {
      const dataDir = tempDataDir();
      const args = await storeArgs(dataDir);
      const accounts = ['a', 'b', 'c'].map((name) => `migrate-${round}-${name}`);
      const serving = serve(args);
      const creating = accounts.map((account) => runCli(['keys', 'create', '--account', account, '--mode', 'test', '--json', ...args]));
      await expectAllSucceed([serving, ...creating]);
      const { url } = await serving;
      for (const { stdout } of await Promise.all(creating)) await expectKeyWorks(url, JSON.parse(stdout) as Keys);
      await expectFullyMigrated(dataDir);
    });
  }

  for (const round of [1, 2]) {
    it(`round ${round}: two serves at once`, async () => {
      const dataDir = tempDataDir();
      const args = await storeArgs(dataDir);
      const serving = [serve(args), serve(args)];
      await expectAllSucceed(serving);
      const keys = await createKeys(dataDir, `migrate-serves-${round}`);
      for (const { url } of await Promise.all(serving)) await expectKeyWorks(url, keys);
      await expectFullyMigrated(dataDir);
    });
  }
});
