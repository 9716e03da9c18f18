import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));

// What a merchant's plain JavaScript gets: the package as the test command built it (`npm run build`),
// imported by Node without a TypeScript loader.
describe('the built @payframe/node', () => {
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

  it('ships its types beside the JavaScript, the contract types named by package', () => {
    const types = readFileSync(`${repositoryRoot}/packages/node/dist/index.d.ts`, 'utf8');
    expect(types).toMatch(/export \{ Payframe \} from/);
    expect(types).toContain("from '@payframe/contract'");
  });

  it('needs nothing of @payframe/contract at run time', async () => {
    const { stdout } = await run('grep', ['-rl', '@payframe/contract', 'packages/node/dist', '--include=*.js'], { cwd: repositoryRoot }).catch(
      (error: { stdout: string; code: number }) => (error.code === 1 ? { stdout: error.stdout } : Promise.reject(error)),
    );
    expect(stdout).toBe('');
  });
});

// What a merchant's TypeScript gets: its own strict settings, the package's .d.ts files only.
describe('a TypeScript project using @payframe/node', () => {
  const consumer = `
    import { Payframe, CardError, SignatureVerificationError, type Charge, type Event } from '@payframe/node';
    const payframe = new Payframe('sk_test_x', { apiBase: 'http://127.0.0.1:4000' });
    export async function pay(token: string, rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<string> {
      const charge: Charge = await payframe.charges.create({ token, amount: 1200, currency: 'EUR', description: 'd', return_url: 'https://x.example/r' });
      for await (const pending of payframe.charges.list({ status: 'PENDING' })) console.log(pending.threedSecure.status);
      try {
        const event: Event = Payframe.webhooks.constructEvent(rawBody, headers, 'whsec_x');
        if (event.name === 'charge.captured') console.log(event.data.object.amount);
      } catch (error) {
        if (error instanceof SignatureVerificationError || error instanceof CardError) console.log(error.message);
      }
      // @ts-expect-error: not a charge status
      payframe.charges.list({ status: 'NOPE' });
      return charge.id;
    }
  `;
  const settings = {
    nodenext: { module: 'NodeNext', moduleResolution: 'NodeNext', exactOptionalPropertyTypes: true },
    bundler: { module: 'ESNext', moduleResolution: 'bundler' },
  };
  let project: string;

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'payframe-sdk-consumer-'));
    symlinkSync(join(repositoryRoot, 'node_modules'), join(project, 'node_modules'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(join(project, 'consumer.ts'), consumer);
    for (const [name, options] of Object.entries(settings)) {
      const compilerOptions = { strict: true, noUncheckedIndexedAccess: true, target: 'ES2022', noEmit: true, types: ['node'], skipLibCheck: true, ...options };
      writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
    }
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('compiles under strict NodeNext and bundler settings with no special flags', async () => {
    const tsc = join(repositoryRoot, 'node_modules/typescript/bin/tsc');
    const compile = (name: string) =>
      run(process.execPath, [tsc, '-p', `tsconfig.${name}.json`], { cwd: project }).then(
        () => '',
        (error: { stdout: string }) => error.stdout,
      );
    const errors = await Promise.all(Object.keys(settings).map(compile));
    expect(errors).toEqual(['', '']);
    // Two compilers at once, each reading the contract's and zod's declarations: minutes on a loaded shared host.
  }, 120_000);
});
