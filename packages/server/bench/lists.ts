/**
 * `npm run bench:lists`: seeds one account with many charges (`payframe seed`), starts a server on
 * it and measures, one request at a time, pages of 100 for each list filter, walking forward with
 * starting_after and back with ending_before. Prints p50/p99 per filter against the 50 ms target, and
 * the server's CPU time per page (less sensitive to a busy machine than latency).
 *
 *   --charges N        charges to seed (default 1000000)
 *   --db sqlite|postgres|both   (default both)
 *   --pages N          pages measured per filter and direction (default 50)
 *   --postgres-url URL an administrative URL (default: the local server)
 *   --data-dir DIR     measure a store seeded before (account "bench"), without seeding: SQLite in
 *                      DIR, or with --database-url the PostgreSQL database (DIR holds its master key)
 *   --database-url URL with --data-dir: the PostgreSQL database seeded before
 */
import { parseArgs } from 'node:util';
import { freePort, runCli, spawnServe } from '@payframe/server/process';
import { cpuMs } from './proc.ts';
import { type Latency, latency } from './report.ts';
import { eachStore, SEEDED_STORE_OPTIONS, seededStores, withSeededStore } from './seeded-stores.ts';

const TARGET_P99_MS = 50;
const PAGE = 100;
const log = (message: string) => process.stderr.write(`[bench:lists] ${message}\n`);

const { values } = parseArgs({
  options: { ...SEEDED_STORE_OPTIONS, pages: { type: 'string', default: '50' } },
  strict: true,
});
const plan = seededStores(values);
const pages = Number(values.pages);
if (!Number.isSafeInteger(pages) || pages < 1) throw new Error('--pages must be a positive integer');

type Row = { store: string; filter: string; requests: number; latency: Latency; cpuPerPage: number | null };

/** The filters measured: each one alone, as a merchant's back office would use them. */
const FILTERS: Array<[string, string]> = [
  ['charges', '/v2/charges'],
  ['charges status=PENDING', '/v2/charges?status=PENDING'],
  ['charges status=CHARGE_SUCCESS', '/v2/charges?status=CHARGE_SUCCESS'],
  ['charges status=REFUNDED (expiry included)', '/v2/charges?status=REFUNDED'],
  ['charges email', '/v2/charges?email=SHOPPER42%40example.com'],
  ['charges last4', '/v2/charges?last4=4444'],
  ['charges txn_reference', '/v2/charges?txn_reference=order-100042'],
  ['charges created range', 'CREATED'],
  ['refunds', '/v2/refunds'],
  ['events', '/v2/events'],
  ['events name=charge.captured', '/v2/events?name=charge.captured'],
];

async function timed(url: string, key: string): Promise<{ ms: number; body: any }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { 'x-api-key': key } });
  const body = await response.json();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

/** Pages forward from the newest, then back with ending_before: every page one request. */
async function measure(base: string, path: string, key: string): Promise<number[]> {
  const separator = path.includes('?') ? '&' : '?';
  const times: number[] = [];
  const cursors: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < pages; page++) {
    const { ms, body } = await timed(`${base}${path}${separator}limit=${PAGE}${after ? `&starting_after=${after}` : ''}`, key);
    times.push(ms);
    if (!body.has_more) break;
    after = body.data.at(-1).id;
    cursors.push(body.data[0].id);
  }
  for (const before of cursors.reverse()) times.push((await timed(`${base}${path}${separator}limit=${PAGE}&ending_before=${before}`, key)).ms);
  return times;
}

async function benchStore(store: string): Promise<Row[]> {
  return withSeededStore(plan, store, 'lists', log, async (storeArgs) => {
    const keys = JSON.parse((await runCli(['keys', 'create', '--account', 'bench', '--mode', 'test', '--json', ...storeArgs])).stdout);
    const port = await freePort('127.0.0.1');
    // Request logs off, as in production benchmarks; readiness then comes from /healthz.
    const server = await spawnServe({ args: [...storeArgs, '--port', String(port), '--log-level', 'warn'], healthUrl: `http://127.0.0.1:${port}` });
    try {
      const rows: Row[] = [];
      const now = Math.floor(Date.now() / 1000);
      for (const [name, path] of FILTERS) {
        const resolved = path === 'CREATED' ? `/v2/charges?created[gte]=${now - 30 * 86_400}&created[lt]=${now - 14 * 86_400}` : path;
        // One warm-up pass, as a running server would be; then the measured one.
        await measure(server.url, resolved, keys.secretKey);
        const cpuBefore = cpuMs(server.pid);
        const times = await measure(server.url, resolved, keys.secretKey);
        const cpuAfter = cpuMs(server.pid);
        const cpuPerPage = cpuBefore === null || cpuAfter === null ? null : Math.round(((cpuAfter - cpuBefore) / times.length) * 10) / 10;
        rows.push({ store, filter: name, requests: times.length, latency: latency(times), cpuPerPage });
        log(`${store}: ${name}: p50 ${rows.at(-1)!.latency.p50} ms, p99 ${rows.at(-1)!.latency.p99} ms, server CPU ${cpuPerPage ?? '?'} ms/page`);
      }
      return rows;
    } finally {
      await server.stop();
    }
  });
}

const { rows, loads } = await eachStore(plan.stores, benchStore);
console.log(`\nList pages of ${PAGE}, ${plan.charges.toLocaleString('en')} charges in one account (target p99 < ${TARGET_P99_MS} ms)`);
console.log(`Load average (1 min) at start and end: ${loads}\n`);
console.log('| store | list and filter | requests | p50 ms | p99 ms | server CPU ms/page | target |');
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) {
  const verdict = row.latency.p99 < TARGET_P99_MS ? 'PASS' : 'MISS';
  console.log(`| ${row.store} | ${row.filter} | ${row.requests} | ${row.latency.p50} | ${row.latency.p99} | ${row.cpuPerPage ?? '?'} | ${verdict} |`);
}
