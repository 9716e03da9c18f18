import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, captureCharge, client, createCharge, refundCharge, retrieveCharge, TEST_PANS } from './client.ts';
import { cli, createKeys, type Keys, startServer, type TestServer, tempDataDir } from './harness.ts';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('payframe backup and restore of the embedded store', () => {
  let source: TestServer;
  let restored: TestServer | undefined;
  let keys: Keys;
  let api: Client;
  const backupDir = tempDataDir('payframe-backup-');
  const backupFile = join(backupDir, 'payframe.backup');
  /** Captures whose 200 arrived before the backup command started. */
  let acknowledgedBefore: string[] = [];
  let capturedDuring = 0;
  let backupOutput = '';

  beforeAll(async () => {
    source = await startServer();
    keys = await createKeys(source.dataDir, 'backups');
    api = client(source.url, keys.secretKey);
    const acknowledged: string[] = [];
    let loading = true;
    let haveEnough = () => {};
    const enough = new Promise<void>((resolve) => (haveEnough = resolve));
    // Flows keep running, from several loops, while the backup is taken.
    const loops = Array.from({ length: 4 }, async () => {
      while (loading) {
        const charge = await createCharge(api, TEST_PANS.visa);
        await captureCharge(api, charge.id);
        acknowledged.push(charge.id);
        if (acknowledged.length >= 40) haveEnough();
      }
    });
    await Promise.race([enough, Promise.all(loops)]);
    acknowledgedBefore = [...acknowledged];
    const backup = await cli(['backup', '--data-dir', source.dataDir, '--to', backupFile]);
    capturedDuring = acknowledged.length - acknowledgedBefore.length;
    loading = false;
    await Promise.all(loops);
    expect(backup.code, backup.stderr).toBe(0);
    backupOutput = backup.stdout;
  }, 120_000);
  afterAll(async () => {
    await Promise.all([source?.stop(), restored?.stop()]);
  });

  it('took the backup while captures were being acknowledged', () => {
    expect(capturedDuring).toBeGreaterThan(0);
  });

  it('writes the backup owner-only and says the master key is not in it', () => {
    expect(modeOf(backupFile)).toBe(0o600);
    expect(backupOutput).toContain('master key is not in the backup');
    expect(backupOutput).toContain(join(source.dataDir, 'master.key'));
  });

  it('restores into a new data directory that serves every capture acknowledged before the backup began, and a full flow', async () => {
    const dataDir = join(tempDataDir('payframe-restore-'), 'restored');
    const restore = await cli(['restore', '--from', backupFile, '--data-dir', dataDir, '--master-key-file', join(source.dataDir, 'master.key')]);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain('Copied the master key');
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(join(dataDir, 'payframe.sqlite3'))).toBe(0o600);
    expect(modeOf(join(dataDir, 'master.key'))).toBe(0o600);
    expect(readFileSync(join(dataDir, 'master.key'))).toEqual(readFileSync(join(source.dataDir, 'master.key')));

    restored = await startServer({ dataDir });
    const restoredApi = client(restored.url, keys.secretKey);
    const missing: string[] = [];
    for (const id of acknowledgedBefore) {
      const response = await restoredApi.get(`/v2/charges/${id}`);
      if (response.status !== 200 || response.body.status !== 'CHARGE_SUCCESS') missing.push(`${id}: ${response.status} ${response.body?.status ?? ''}`);
    }
    expect(missing).toEqual([]);

    const charge = await createCharge(restoredApi, TEST_PANS.visa);
    expect((await captureCharge(restoredApi, charge.id)).status).toBe('CHARGE_SUCCESS');
    expect((await refundCharge(restoredApi, charge.id)).status).toBe('REFUNDED');
    expect((await retrieveCharge(restoredApi, charge.id)).status).toBe('REFUNDED');
  }, 120_000);

  it('without --master-key-file, tells the operator to copy the master key', async () => {
    const dataDir = join(tempDataDir('payframe-restore-'), 'no-key');
    const restore = await cli(['restore', '--from', backupFile, '--data-dir', dataDir]);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain(`copy the old data directory's master.key to ${join(dataDir, 'master.key')}`);
  });

  it('with a master key file that is not there, fails and leaves no database: the corrected command then restores', async () => {
    const dataDir = join(tempDataDir('payframe-restore-'), 'wrong-key');
    const wrong = await cli(['restore', '--from', backupFile, '--data-dir', dataDir, '--master-key-file', join(backupDir, 'no-such.key')]);
    expect(wrong.code).toBe(1);
    expect(existsSync(join(dataDir, 'payframe.sqlite3'))).toBe(false);
    const right = await cli(['restore', '--from', backupFile, '--data-dir', dataDir, '--master-key-file', join(source.dataDir, 'master.key')]);
    expect(right.code, right.stderr).toBe(0);
    expect(existsSync(join(dataDir, 'payframe.sqlite3'))).toBe(true);
  });

  it('refuses to restore over a data directory that holds a database', async () => {
    const restore = await cli(['restore', '--from', backupFile, '--data-dir', source.dataDir]);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain('already holds a database');
  });

  it('refuses a file that is not a Payframe backup, and leaves no data directory half made', async () => {
    const junk = join(backupDir, 'junk');
    writeFileSync(junk, 'not a database at all, just some text that is long enough to fill a header'.repeat(10));
    const dataDir = join(backupDir, 'from-junk');
    const restore = await cli(['restore', '--from', junk, '--data-dir', dataDir]);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/not a (SQLite database|Payframe backup)/);
    expect(() => statSync(dataDir)).toThrow();
  });
});
