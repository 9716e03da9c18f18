/**
 * `npm run bench:request-log`: what the request log costs per request in CPU, apart from any HTTP
 * or machine noise: entries shaped like a flow's three requests (a token with its card, a charge, a
 * capture) queued and written through the server's own request log on a fresh SQLite store, timed
 * by this process's CPU clock. Compare with the server's CPU per flow from `npm run bench`.
 *
 *   --entries N   (default 30000)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type AnsweredRequest, startRequestLog } from '../src/services/request-log.ts';
import { openStore } from '../src/storage/db.ts';

const { values } = parseArgs({ options: { entries: { type: 'string', default: '30000' } }, strict: true });
const entries = Number(values.entries);

const token = JSON.stringify({
  type: 'token',
  id: '01a21915-e3cb-7aff-84b0-233817921586',
  card: { last4Digits: '4242', brand: 'VISA', name: 'Ada Lovelace' },
  created: 1795342555,
});
const charge = JSON.stringify({
  type: 'charge',
  id: 'C202611261234567890123456789012345',
  amount: 1250,
  currency: 'EUR',
  status: 'PENDING',
  description: 'Order 1',
  token: JSON.parse(token),
}).padEnd(860, ' ');
const shapes: Array<Omit<AnsweredRequest, 'id' | 'at'>> = [
  {
    accountId: 'acct',
    mode: 'test',
    method: 'POST',
    url: '/v2/tokens',
    status: 200,
    durationMs: 3.2,
    keyId: 'key_1',
    idempotencyKey: undefined,
    query: {},
    body: {
      card: { number: '4242424242424242', cvc: '123', exp_month: '12', exp_year: '2030', name: 'Ada Lovelace' },
      shopper: { ip: '203.0.113.7', session_id: 's', email: 'ada@example.com' },
    },
    response: token,
  },
  {
    accountId: 'acct',
    mode: 'test',
    method: 'POST',
    url: '/v2/charges',
    status: 200,
    durationMs: 4.1,
    keyId: 'key_1',
    idempotencyKey: 'order-1',
    query: {},
    body: { token: '01a21915-e3cb-7aff-84b0-233817921586', amount: '1250', currency: 'EUR', description: 'Order 1', return_url: 'https://shop.example/return' },
    response: charge,
  },
  {
    accountId: 'acct',
    mode: 'test',
    method: 'POST',
    url: '/v2/charges/capture/C1',
    status: 200,
    durationMs: 2.5,
    keyId: 'key_1',
    idempotencyKey: undefined,
    query: {},
    body: undefined,
    response: charge,
  },
];

const dataDir = mkdtempSync(join(tmpdir(), 'payframe-bench-request-log-'));
const store = await openStore({ kind: 'sqlite', dataDir });
try {
  const log = startRequestLog(store, (error) => {
    throw error;
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < entries; i++) {
    log.add({ ...(shapes[i % 3] as (typeof shapes)[number]), id: `req_${i.toString(16).padStart(24, '0')}`, at: Date.now() });
    // As requests arrive: the queue is written on its timer or when full, never all at once.
    if (i % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
  }
  await log.close();
  const used = process.cpuUsage(cpu);
  const cpuUs = (used.user + used.system) / entries;
  console.log(
    `${entries} entries written in ${Math.round(performance.now() - started)} ms: ${cpuUs.toFixed(1)} µs of CPU per request (redaction, JSON and the insert), ${(cpuUs * 3).toFixed(0)} µs per token → charge → capture flow`,
  );
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
