import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, createCharge, createToken, TEST_PANS } from './client.ts';
import { createUser, dashboardClient } from './dashboard-support.ts';
import { createKeys, type Keys, startServer, TEST_POSTGRES_URL, type TestServer } from './harness.ts';
import { type Receiver, startReceiver } from './webhook-receiver.ts';

const TOKEN = 'metrics-token-for-tests';

let server: TestServer;
let plain: TestServer;
let keys: Keys;
let api: Client;
let receiver: Receiver;
let metricsPortUrl: string;

/** The URL the server logged for its loopback metrics port. */
function loggedMetricsUrl(output: string): string {
  const line = output.split('\n').find((text) => text.includes('"payframe metrics ready"'));
  if (!line) throw new Error(`no metrics port in the log:\n${output}`);
  return (JSON.parse(line) as { url: string }).url;
}

async function scrape(url = `${server.url}/metrics`, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) {
  const response = await fetch(url, { headers });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** The value of one sample (name with its labels, as printed), or 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) return Number(match[3]);
  }
  return 0;
}

async function until(check: (text: string) => boolean, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { text } = await scrape();
    if (check(text)) return text;
    if (Date.now() > deadline) throw new Error(`metrics never satisfied the check:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  // The first attempt fails, the second succeeds: both outcomes show.
  receiver = await startReceiver((_request, n) => ({ status: n === 1 ? 500 : 200 }));
  server = await startServer({
    args: ['--metrics-port', '0'],
    env: { PAYFRAME_METRICS_TOKEN: TOKEN, PAYFRAME_WEBHOOK_RETRY_SCHEDULE: '0.2,0.2' },
  });
  plain = await startServer();
  metricsPortUrl = loggedMetricsUrl(server.output());
  keys = await createKeys(server.dataDir, 'metrics');
  api = client(server.url, keys.secretKey);
});
afterAll(async () => {
  await Promise.all([server?.stop(), plain?.stop()]);
  await receiver?.close();
});

describe('GET /metrics on the API port', () => {
  it('does not exist when no token is configured', async () => {
    const { status } = await scrape(`${plain.url}/metrics`);
    expect(status).toBe(404);
  });

  it('answers 401 without the bearer token, or with a wrong one', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }];
    for (const headers of attempts) {
      const response = await scrape(undefined, headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(response.text).not.toContain('payframe_');
    }
  });

  it('answers the Prometheus text format with the token', async () => {
    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.text).toContain('# TYPE payframe_http_requests_total counter');
    expect(response.text).toContain('process_cpu_user_seconds_total');
    expect(response.text).toContain('nodejs_eventloop_lag_seconds');
  });
});

describe('the loopback metrics port', () => {
  it('is bound to 127.0.0.1 and needs no token', async () => {
    expect(new URL(metricsPortUrl).hostname).toBe('127.0.0.1');
    const response = await scrape(metricsPortUrl, {});
    expect(response.status).toBe(200);
    expect(response.text).toContain('payframe_http_requests_total');
    expect((await scrape(metricsPortUrl.replace('/metrics', '/other'), {})).status).toBe(404);
  });
});

describe('after flows', () => {
  let text: string;
  let before: string;
  const secrets: string[] = [];

  beforeAll(async () => {
    before = (await scrape()).text;
    const endpoint = await api.post('/v2/webhook_endpoints', { url: receiver.url, events: ['charge.captured'] });
    expect(endpoint.status).toBe(200);
    secrets.push(endpoint.body.id, endpoint.body.secret);
    const email = 'metrics.shopper@example.com';
    const charge = await createCharge(api, TEST_PANS.visa, {});
    secrets.push(charge.id);
    expect((await api.post(`/v2/charges/capture/${charge.id}`)).status).toBe(200);
    expect((await api.post(`/v2/charges/refund/${charge.id}`)).status).toBe(200);
    const token = await createToken(api, TEST_PANS.visa, { shopper: { ip: '203.0.113.7', session_id: 's', email } });
    secrets.push(token.id, email);
    const usd = await api.post(
      '/v2/charges',
      { token: token.id, amount: '700', currency: 'usd', description: 'Order', return_url: 'https://shop.example/r' },
      { headers: { 'idempotency-key': 'metrics-usd-1' } },
    );
    expect(usd.status).toBe(200);
    secrets.push(usd.body.id);
    // A replay is not a second charge.
    const replay = await api.post(
      '/v2/charges',
      { token: token.id, amount: '700', currency: 'usd', description: 'Order', return_url: 'https://shop.example/r' },
      { headers: { 'idempotency-key': 'metrics-usd-1' } },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const declinedToken = await createToken(api, TEST_PANS.declined);
    secrets.push(declinedToken.id);
    expect(
      (await api.post('/v2/charges', { token: declinedToken.id, amount: '900', currency: 'gbp', description: 'Order', return_url: 'https://shop.example/r' }))
        .status,
    ).toBe(402);
    expect((await api.get(`/v2/charges/${charge.id}`)).status).toBe(200);
    expect((await api.get(`/v2/charges/ch_${'x'.repeat(20)}`)).status).toBe(404);
    expect((await api.get(`/no/such/${charge.id}`)).status).toBe(404);
    text = await until((current) => sample(current, 'payframe_webhook_attempts_total', { outcome: 'succeeded' }) >= 1);
  });

  it('counts requests by route pattern and status, never by raw URL', () => {
    expect(sample(text, 'payframe_http_requests_total', { method: 'POST', route: '/v2/charges', status: '200' })).toBe(3);
    expect(sample(text, 'payframe_http_requests_total', { method: 'POST', route: '/v2/charges', status: '402' })).toBe(1);
    expect(sample(text, 'payframe_http_requests_total', { method: 'GET', route: '/v2/charges/:id', status: '200' })).toBe(1);
    expect(sample(text, 'payframe_http_requests_total', { method: 'GET', route: '/v2/charges/:id', status: '404' })).toBe(1);
    expect(sample(text, 'payframe_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'payframe_http_request_duration_seconds_count', { method: 'POST', route: '/v2/charges/capture/:id', status: '200' })).toBe(1);
    expect(sample(text, 'payframe_http_request_duration_seconds_bucket', { route: '/v2/charges/capture/:id', le: '+Inf' })).toBe(1);
  });

  it('counts charges created, captured and declined by currency, replays once', () => {
    expect(sample(before, 'payframe_charges_total', { outcome: 'created', currency: 'EUR' })).toBe(0);
    expect(sample(text, 'payframe_charges_total', { outcome: 'created', currency: 'EUR' })).toBe(1);
    expect(sample(text, 'payframe_charges_total', { outcome: 'created', currency: 'USD' })).toBe(1);
    expect(sample(text, 'payframe_charges_total', { outcome: 'captured', currency: 'EUR' })).toBe(1);
    expect(sample(text, 'payframe_charges_total', { outcome: 'declined', currency: 'GBP' })).toBe(1);
  });

  it('counts webhook attempts by outcome and shows the queue and the sweeper', () => {
    expect(sample(text, 'payframe_webhook_attempts_total', { outcome: 'retrying' })).toBe(1);
    expect(sample(text, 'payframe_webhook_attempts_total', { outcome: 'succeeded' })).toBe(1);
    expect(text).toMatch(/^payframe_webhook_deliveries_pending \d+$/m);
    expect(text).toMatch(/^payframe_sweeper_lag_seconds\{job="expire-charges"\} [\d.e+-]+$/m);
  });

  it('shows the database pool (SQLite: its one connection), without the scrape’s own reads waiting in it', async () => {
    const connections = sample(text, 'payframe_db_pool_connections', { state: 'idle' }) + sample(text, 'payframe_db_pool_connections', { state: 'in_use' });
    if (TEST_POSTGRES_URL === undefined) expect(connections).toBe(1);
    else expect(connections).toBeGreaterThan(0);
    // Nothing else is asking now: a waiting request would be the scrape's own, read from the database.
    expect(sample((await scrape()).text, 'payframe_db_pool_connections', { state: 'waiting' })).toBe(0);
  });

  it('counts a capture made from the dashboard', async () => {
    const admin = { email: 'metrics-admin@shop.test', password: 'metrics admin password' };
    await createUser(server.dataDir, 'metrics', admin.email, 'admin', admin.password);
    const dashboard = dashboardClient(server.url);
    expect((await dashboard.login(admin.email, admin.password)).status).toBe(200);
    const charge = await createCharge(api, TEST_PANS.visa, { currency: 'JPY', amount: '500' });
    const counted = () => sample(text, 'payframe_charges_total', { outcome: 'captured', currency: 'JPY' });
    expect(counted()).toBe(0);
    expect((await dashboard.post(`/charges/${charge.id}/capture?mode=test`, {})).status).toBe(200);
    await until((now) => sample(now, 'payframe_charges_total', { outcome: 'captured', currency: 'JPY' }) === 1);
  });

  it('shows no card number, key, e-mail or id anywhere', () => {
    const forbidden = [...Object.values(TEST_PANS), keys.secretKey, keys.publishableKey, TOKEN, 'ada@example.com', ...secrets];
    for (const value of forbidden) expect(text).not.toContain(value);
    // Nothing that looks like an object id or a key, whatever its kind.
    expect(text).not.toMatch(/\b(ch|tok|re|evt|we|sk|pk|whsec)_[A-Za-z0-9]{8,}/);
    expect(text).not.toMatch(/@/);
    // Card numbers have 12 to 19 digits; no label value has that many (values may: byte counts).
    const labelValues = [...text.matchAll(/="([^"]*)"/g)].map((match) => match[1]);
    expect(labelValues.filter((value) => /\d{12}/.test(value ?? ''))).toEqual([]);
  });
});
