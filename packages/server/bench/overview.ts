/**
 * `npm run bench:overview`: seeds one account with many charges (`payframe seed`, which fills the
 * home page's daily counters too), starts a server on it, signs a dashboard user in and asks
 * `GET /dashboard/api/overview` for each period, one request at a time. Prints p50/p99 per period
 * against the 300 ms target.
 *
 *   --charges N        charges to seed (default 1000000)
 *   --db sqlite|postgres|both   (default both)
 *   --requests N       requests measured per period (default 200)
 *   --postgres-url URL an administrative URL (default: the local server)
 *   --data-dir DIR     measure a store seeded before (account "bench"), without seeding
 *   --database-url URL with --data-dir: the PostgreSQL database seeded before
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { OVERVIEW_PERIODS } from '@payframe/contract';
import { freePort, runCli, spawnServe } from '@payframe/server/process';
import { createBenchDatabase, dropBenchDatabase, postgresAdminUrl } from './postgres.ts';
import { type Latency, latency } from './report.ts';

const TARGET_P99_MS = 300;
const log = (message: string) => process.stderr.write(`[bench:overview] ${message}\n`);

const { values } = parseArgs({
  options: {
    charges: { type: 'string', default: '1000000' },
    db: { type: 'string', default: 'both' },
    requests: { type: 'string', default: '200' },
    'postgres-url': { type: 'string' },
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
  },
  strict: true,
});
const charges = Number(values.charges);
const requests = Number(values.requests);
if (!Number.isSafeInteger(charges) || charges < 1) throw new Error('--charges must be a positive integer');
if (!Number.isSafeInteger(requests) || requests < 1) throw new Error('--requests must be a positive integer');
const seededDir = values['data-dir'];
const seededUrl = values['database-url'];
if (seededUrl && !seededDir) throw new Error('--database-url needs --data-dir (the directory seeded with it)');
const stores = seededDir ? [seededUrl ? 'postgres' : 'sqlite'] : values.db === 'both' ? ['sqlite', 'postgres'] : [values.db];
if (!stores.every((store) => store === 'sqlite' || store === 'postgres')) throw new Error('--db must be sqlite, postgres or both');

type Row = { store: string; period: string; latency: Latency };

async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/dashboard/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

async function benchStore(store: string): Promise<Row[]> {
  const dataDir = seededDir ?? mkdtempSync(join(tmpdir(), 'payframe-bench-overview-'));
  const database = store === 'postgres' && !seededDir ? await createBenchDatabase(await postgresAdminUrl(values['postgres-url'] ?? null)) : null;
  const url = seededUrl ?? database?.url;
  const storeArgs = ['--data-dir', dataDir, ...(url ? ['--database-url', url] : [])];
  try {
    if (!seededDir) {
      log(`${store}: seeding ${charges} charges`);
      const seeded = await runCli(['seed', '--account', 'bench', '--charges', String(charges), '--json', ...storeArgs], { timeoutMs: 4 * 60 * 60 * 1000 });
      log(`${store}: ${seeded.stdout.trim()}`);
    }
    const email = `bench-${Date.now()}@payframe.test`;
    const user = JSON.parse((await runCli(['users', 'create', '--account', 'bench', '--email', email, '--role', 'viewer', '--json', ...storeArgs])).stdout);
    const port = await freePort('127.0.0.1');
    const server = await spawnServe({ args: [...storeArgs, '--port', String(port), '--log-level', 'warn'], healthUrl: `http://127.0.0.1:${port}` });
    try {
      const cookie = await signIn(server.url, email, user.password);
      const rows: Row[] = [];
      for (const period of OVERVIEW_PERIODS) {
        const ask = async () => {
          const started = performance.now();
          const response = await fetch(`${server.url}/dashboard/api/overview?mode=test&period=${period}`, { headers: { cookie } });
          const body = (await response.json()) as { created?: number };
          if (response.status !== 200) throw new Error(`overview ${period}: ${response.status} ${JSON.stringify(body)}`);
          return { ms: performance.now() - started, created: body.created ?? 0 };
        };
        // A warm-up, as a running server would be; then the measured requests.
        for (let i = 0; i < 10; i++) await ask();
        const times: number[] = [];
        let created = 0;
        for (let i = 0; i < requests; i++) {
          const answer = await ask();
          times.push(answer.ms);
          created = answer.created;
        }
        rows.push({ store, period, latency: latency(times) });
        log(`${store}: ${period}: ${created} charges created in the period, p50 ${rows.at(-1)?.latency.p50} ms, p99 ${rows.at(-1)?.latency.p99} ms`);
      }
      return rows;
    } finally {
      await server.stop();
    }
  } finally {
    if (database) await dropBenchDatabase(database).catch((error: unknown) => log(`could not drop ${database.name}: ${String(error)}`));
    if (!seededDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
const loads: string[] = [];
const load = () => (loadavg()[0] ?? 0).toFixed(1);
for (const store of stores) {
  const before = load();
  rows.push(...(await benchStore(store)));
  loads.push(`${store} ${before} to ${load()}`);
}
console.log(`\nGET /dashboard/api/overview, ${charges.toLocaleString('en')} charges in one account (target p99 < ${TARGET_P99_MS} ms)`);
console.log(`Load average (1 min) at start and end: ${loads.join(', ')}\n`);
console.log('| store | period | requests | p50 ms | p99 ms | target |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) {
  console.log(
    `| ${row.store} | ${row.period} | ${row.latency.count} | ${row.latency.p50} | ${row.latency.p99} | ${row.latency.p99 < TARGET_P99_MS ? 'PASS' : 'MISS'} |`,
  );
}
