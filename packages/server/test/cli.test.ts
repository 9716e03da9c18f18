import { type AddressInfo, createServer } from 'node:net';
import { expectError } from '@payframe/contract/testing';
import { describe, expect, it } from 'vitest';
import { revokeKey } from '../src/services/api-keys.ts';
import { client } from './client.ts';
import { dashboardClient } from './dashboard-support.ts';
import { cli, createKeys, startServer, tempDataDir, withStoreOf } from './harness.ts';

describe('payframe keys', () => {
  it('creates keys on a fresh data directory and prints exactly account, secretKey, publishableKey', async () => {
    const dataDir = tempDataDir();
    const { stdout, code } = await cli(['keys', 'create', '--account', 'acme', '--mode', 'live', '--json', '--data-dir', dataDir]);
    expect(code).toBe(0);
    const keys = JSON.parse(stdout);
    expect(Object.keys(keys).sort()).toEqual(['account', 'publishableKey', 'secretKey']);
    expect(keys.account).toBe('acme');
    expect(keys.secretKey).toMatch(/^sk_live_[A-Za-z0-9_-]{32,}$/);
    expect(keys.publishableKey).toMatch(/^pk_live_[A-Za-z0-9_-]{32,}$/);
  });

  it('lists keys by hint only, and revokes one by its id', async () => {
    const dataDir = tempDataDir();
    const created = JSON.parse((await cli(['keys', 'create', '--account', 'acme', '--mode', 'test', '--json', '--data-dir', dataDir])).stdout);
    const listed = await cli(['keys', 'list', '--json', '--data-dir', dataDir]);
    expect(listed.stdout).not.toContain(created.secretKey);
    const keys = JSON.parse(listed.stdout) as Array<{ id: string; kind: string; revoked: number | null }>;
    expect(keys.map((key) => key.kind).sort()).toEqual(['publishable', 'secret']);

    const secret = keys.find((key) => key.kind === 'secret');
    expect((await cli(['keys', 'revoke', secret?.id ?? '', '--json', '--data-dir', dataDir])).stdout.trim()).toBe('{"revoked":true}');
    const again = await cli(['keys', 'revoke', secret?.id ?? '', '--json', '--data-dir', dataDir]);
    expect(again.code).toBe(1);
    const [keyListed] = JSON.parse((await cli(['keys', 'list', '--json', '--data-dir', dataDir])).stdout) as Array<{ created: number; revoked: number | null }>;
    // Seconds since the epoch, as every timestamp of the API.
    const now = Math.floor(Date.now() / 1000);
    expect(keyListed?.created).toBeGreaterThan(now - 120);
    expect(keyListed?.created).toBeLessThanOrEqual(now);
    expect(keyListed?.revoked).toBeGreaterThanOrEqual(keyListed?.created ?? Number.POSITIVE_INFINITY);
    expect(keyListed?.revoked).toBeLessThanOrEqual(now);
  });

  it('revokes keys that a server on the same embedded store refuses at once, though it had them cached', async () => {
    const dataDir = tempDataDir();
    const server = await startServer({ dataDir });
    try {
      // Several rounds: the server's own poll of the key generation (every 250 ms) may land between
      // a revocation and the next request by chance, not three times in a row.
      for (let round = 0; round < 3; round++) {
        const keys = await createKeys(dataDir, `revoked-at-once-${round}`);
        const secret = client(server.url, keys.secretKey);
        expect((await secret.get('/v2/test_helpers/clock')).status).toBe(200);
        // The service `keys revoke` runs, on a connection of this process: not the server's.
        expect(await withStoreOf(dataDir, (store) => revokeKey(store, keys.secretKey, Date.now()))).toBe(true);
        expectError(await secret.get('/v2/test_helpers/clock'), 401, 'INVALID_API_KEY');
      }
    } finally {
      await server.stop();
    }
  });

  it('refuses bad arguments with a message and exit code 2, and a command that fails as given with 1', async () => {
    const dataDir = tempDataDir();
    const badMode = await cli(['keys', 'create', '--account', 'acme', '--mode', 'staging', '--data-dir', dataDir]);
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toContain('--mode test or --mode live');
    const unknownFlag = await cli(['keys', 'list', '--acount', 'acme', '--data-dir', dataDir]);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toContain("Unknown option '--acount'");
    const badSetting = await cli(['serve', '--port', 'eighty', '--data-dir', dataDir]);
    expect(badSetting.code).toBe(2);
    expect(badSetting.stderr).toContain('Invalid --port');
    const missing = await cli(['backup', '--data-dir', dataDir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('backup needs --to FILE');
    const noSuchKey = await cli(['keys', 'revoke', 'key_0000', '--data-dir', dataDir]);
    expect(noSuchKey.code).toBe(1);
  });

  it('refuses an argument a command does not take, rather than ignoring it, and does not repeat it', async () => {
    const dataDir = tempDataDir();
    const stray = await cli(['keys', 'create', '--account', 'acme', '--mode', 'test', 'sk_test_pasted_here', '--data-dir', dataDir]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('keys create takes no argument besides its flags; got 1');
    expect(stray.stderr).not.toContain('sk_test_pasted_here');
    const two = await cli(['keys', 'revoke', 'key_1', 'key_2', '--data-dir', dataDir]);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('keys revoke takes 1 argument besides its flags; got 2');
  });
});

describe('payframe serve', () => {
  it('says how to choose another port when its port is taken, once, and exits', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const result = await cli(['serve', '--port', String(port), '--host', '127.0.0.1', '--data-dir', tempDataDir()]);
      expect(result.code).toBe(1);
      const said = `payframe: 127.0.0.1:${port} is already in use: stop what listens there, or serve on another port (--port N, or PORT)`;
      expect(result.stderr.split('\n').filter((line) => line.includes('already in use'))).toEqual([said]);
    } finally {
      taken.close();
    }
  });
});

describe('payframe serve --demo', () => {
  it('prints working demo keys, and the same ones on the next start', async () => {
    const dataDir = tempDataDir();
    const first = await startServer({ dataDir, args: ['--demo'] });
    await first.waitForOutput('Test publishable key');
    const secretKey = /Test secret key:\s+(sk_test_\S+)/.exec(first.output())?.[1] ?? '';
    expect((await client(first.url, secretKey).get('/v2/test_helpers/clock')).status).toBe(200);
    await first.stop();

    const second = await startServer({ dataDir, args: ['--demo'] });
    await second.waitForOutput('Test publishable key');
    expect(second.output()).toContain(secretKey);
    await second.stop();
  });

  it('prints new credentials that work when the kept key was revoked and the demo user removed', async () => {
    const dataDir = tempDataDir();
    const first = await startServer({ dataDir, args: ['--demo'] });
    await first.waitForOutput('Test publishable key');
    const { secretKey, password } = demoCredentials(first.output());
    await first.stop();
    expect((await cli(['keys', 'revoke', secretKey, '--data-dir', dataDir])).code).toBe(0);
    expect((await cli(['users', 'remove', 'demo@payframe.test', '--data-dir', dataDir])).code).toBe(0);

    const second = await startServer({ dataDir, args: ['--demo'] });
    await second.waitForOutput('Test publishable key');
    const again = demoCredentials(second.output());
    expect(again.secretKey).not.toBe(secretKey);
    expect(again.password).not.toBe(password);
    expect((await client(second.url, again.secretKey).get('/v2/test_helpers/clock')).status).toBe(200);
    expect((await dashboardClient(second.url).login('demo@payframe.test', again.password)).status).toBe(200);
    await second.stop();
  });
});

function demoCredentials(output: string): { secretKey: string; password: string } {
  return {
    secretKey: /Test secret key:\s+(sk_test_\S+)/.exec(output)?.[1] ?? '',
    password: /sign in as demo@payframe\.test, password (.+)\)/.exec(output)?.[1] ?? '',
  };
}
