import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));

// What a merchant's plain JavaScript gets: the built package, imported by Node without a TypeScript loader.
describe('the built @payframe/node', () => {
  beforeAll(async () => {
    await run('npm', ['run', 'build', '-w', '@payframe/node'], { cwd: repositoryRoot });
  }, 120_000);

  it('imports into plain Node and verifies a webhook', async () => {
    const script = `
      import { createHmac } from 'node:crypto';
      import { Payframe, CardError, SignatureVerificationError } from '@payframe/node';
      const secret = 'whsec_' + Buffer.alloc(32, 3).toString('base64');
      const body = '{"type":"event","id":"evt_1"}';
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = createHmac('sha256', Buffer.alloc(32, 3)).update('evt_1.' + timestamp + '.' + body).digest('base64');
      const event = Payframe.webhooks.constructEvent(body, { 'webhook-id': 'evt_1', 'webhook-timestamp': timestamp, 'webhook-signature': 'v1,' + signature }, secret);
      const client = new Payframe('sk_test_x', { apiBase: 'http://127.0.0.1:1' });
      process.stdout.write(JSON.stringify({ id: event.id, charges: typeof client.charges.list, card: typeof CardError, signature: typeof SignatureVerificationError }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: repositoryRoot });
    expect(JSON.parse(stdout)).toEqual({ id: 'evt_1', charges: 'function', card: 'function', signature: 'function' });
  });

  it('ships its types beside the JavaScript', () => {
    const types = readFileSync(`${repositoryRoot}/packages/node/dist/index.d.ts`, 'utf8');
    expect(types).toMatch(/export \{ Payframe \} from/);
    expect(types).toContain("export type * from '@payframe/contract'");
  });

  it('needs nothing of @payframe/contract at run time', async () => {
    const { stdout } = await run('grep', ['-rl', '@payframe/contract', 'packages/node/dist', '--include=*.js'], { cwd: repositoryRoot }).catch(
      (error: { stdout: string; code: number }) => (error.code === 1 ? { stdout: error.stdout } : Promise.reject(error)),
    );
    expect(stdout).toBe('');
  });
});
