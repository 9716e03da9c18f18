import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dashboardClient, runWithStdin } from './dashboard-support.ts';
import { cli, startServer, storeArgs, tempDataDir } from './harness.ts';

describe('payframe users', () => {
  it('creates a user with a generated password that signs in, lists users without secrets, and removes one, ending its sessions', async () => {
    const server = await startServer();
    try {
      const store = await storeArgs(server.dataDir);
      const created = await cli(['users', 'create', '--account', 'acme', '--email', 'Ops@Acme.test', '--role', 'admin', '--json', ...store]);
      expect(created.code, created.stderr).toBe(0);
      const user = JSON.parse(created.stdout);
      expect(user).toEqual({ account: 'acme', email: 'ops@acme.test', role: 'admin', password: expect.stringMatching(/^\S{20}$/) });

      const dashboard = dashboardClient(server.url);
      expect((await dashboard.login('ops@acme.test', user.password)).status).toBe(200);

      const viewer = await runWithStdin(
        ['users', 'create', '--account', 'acme', '--email', 'read@acme.test', '--role', 'viewer', '--password-stdin', '--json', ...store],
        'twelve chars ok\n',
      );
      expect(viewer.code, viewer.stderr).toBe(0);
      expect(JSON.parse(viewer.stdout)).toEqual({ account: 'acme', email: 'read@acme.test', role: 'viewer' });

      const listed = await cli(['users', 'list', '--json', ...store]);
      expect(JSON.parse(listed.stdout).map((row: { email: string; role: string }) => [row.email, row.role])).toEqual([
        ['ops@acme.test', 'admin'],
        ['read@acme.test', 'viewer'],
      ]);
      expect(listed.stdout).not.toContain(user.password);

      expect((await cli(['users', 'remove', 'OPS@acme.test', '--json', ...store])).stdout.trim()).toBe('{"removed":true}');
      expect((await dashboard.get('/session')).status).toBe(401);
      expect((await cli(['users', 'remove', 'ops@acme.test', ...store])).code).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it('reads the password as soon as its line ends, from a writer that keeps the pipe open', async () => {
    const store = await storeArgs(tempDataDir());
    const args = ['users', 'create', '--account', 'acme', '--email', 'open@acme.test', '--role', 'admin', '--password-stdin', '--json', ...store];
    const created = await runWithStdin(args, 'twelve chars ok\n', { keepOpen: true });
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({ account: 'acme', email: 'open@acme.test', role: 'admin' });
  });

  it('refuses a password under 12 characters, a taken e-mail and an unknown role', async () => {
    const store = await storeArgs(tempDataDir());
    const short = await runWithStdin(
      ['users', 'create', '--account', 'acme', '--email', 'a@acme.test', '--role', 'admin', '--password-stdin', ...store],
      'short\n',
    );
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('at least 12 characters');
    expect((await cli(['users', 'create', '--account', 'acme', '--email', 'a@acme.test', '--role', 'admin', ...store])).code).toBe(0);
    const taken = await cli(['users', 'create', '--account', 'acme', '--email', 'A@acme.test', '--role', 'viewer', ...store]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('exists already');
    expect((await cli(['users', 'create', '--account', 'acme', '--email', 'b@acme.test', '--role', 'owner', ...store])).stderr).toContain(
      '--role admin or --role viewer',
    );
  });
});

describe('serve --demo', () => {
  it('creates demo@payframe.test once, keeps its password in a 0600 file and prints it with the dashboard URL', async () => {
    const dataDir = tempDataDir();
    const first = await startServer({ dataDir, args: ['--demo'] });
    let password: string;
    try {
      const file = join(dataDir, 'demo-user.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      password = JSON.parse(readFileSync(file, 'utf8')).password;
      await first.waitForOutput(`Dashboard:      ${first.url}/dashboard  (sign in as demo@payframe.test, password ${password})`, 10_000);
      const dashboard = dashboardClient(first.url);
      const session = await dashboard.login('demo@payframe.test', password);
      expect(session.body).toMatchObject({ user: { email: 'demo@payframe.test', role: 'admin' }, account: { name: 'demo' } });
    } finally {
      await first.stop();
    }
    const second = await startServer({ dataDir, args: ['--demo'] });
    try {
      await second.waitForOutput(`password ${password})`, 10_000);
      expect((await dashboardClient(second.url).login('demo@payframe.test', password)).status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});
