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
import { parseArgs } from 'node:util';
import { OVERVIEW_PERIODS } from '@payframe/contract';
import { freePort, runCli, spawnServe } from '@payframe/server/process';
import { type Latency, latency } from './report.ts';
import { eachStore, SEEDED_STORE_OPTIONS, seededStores, withSeededStore } from './seeded-stores.ts';

const TARGET_P99_MS = 300;
const log = (message: string) => process.stderr.write(`[bench:overview] ${message}\n`);

const { values } = parseArgs({
  options: { ...SEEDED_STORE_OPTIONS, requests: { type: 'string', default: '200' } },
  strict: true,
});
const plan = seededStores(values);
const requests = Number(values.requests);
if (!Number.isSafeInteger(requests) || requests < 1) throw new Error('--requests must be a positive integer');

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
  return withSeededStore(plan, store, 'overview', log, async (storeArgs) => {
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
  });
}

const { rows, loads } = await eachStore(plan.stores, benchStore);
console.log(`\nGET /dashboard/api/overview, ${plan.charges.toLocaleString('en')} charges in one account (target p99 < ${TARGET_P99_MS} ms)`);
console.log(`Load average (1 min) at start and end: ${loads}\n`);
console.log('| store | period | requests | p50 ms | p99 ms | target |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) {
  console.log(
    `| ${row.store} | ${row.period} | ${row.latency.count} | ${row.latency.p50} | ${row.latency.p99} | ${row.latency.p99 < TARGET_P99_MS ? 'PASS' : 'MISS'} |`,
  );
}
