import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, createCharge, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, type Keys, startServer, type TestServer } from './harness.ts';

/**
 * No log line, at the most verbose level, carries a 3-D Secure link's query string (its paRes is a
 * credential), an API key, a cookie, a password or card data, whatever requests the server receives.
 */

const COOKIE_VALUE = 'session-cookie-value-8b1f3c';
const PASSWORD = 'correct-horse-battery-7e2a';
const UNKNOWN_KEY = 'sk_test_unknownkeyvalue0123456789abcdef';
const CVC = '987';

let server: TestServer;
let keys: Keys;
let api: Client;

beforeAll(async () => {
  server = await startServer({ env: { LOG_LEVEL: 'trace' } });
  keys = await createKeys(server.dataDir, 'log-redaction');
  api = client(server.url, keys.secretKey);
});

afterAll(async () => {
  await server?.stop();
});

describe('log redaction', () => {
  it('logs no paRes, API key, cookie or password', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    const redirect = new URL(charge.threedSecure.redirect as string);
    const paRes = redirect.searchParams.get('paRes') ?? '';
    expect(paRes.length).toBeGreaterThan(10);

    const page = await fetch(redirect, { headers: { cookie: `session=${COOKIE_VALUE}` } });
    expect(page.status).toBe(200);
    const answered = await fetch(redirect, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ paRes, result: 'success' }),
    });
    expect(answered.status).toBe(303);
    await fetch(`${redirect.origin}${redirect.pathname}?paRes=${paRes}x`);

    const headers = { cookie: `session=${COOKIE_VALUE}`, authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}` };
    // Parameters a retrieve does not take: refused (400 PARAMETER_UNKNOWN), and still logged without their values.
    expect((await api.get(`/v2/charges/${charge.id}?password=${PASSWORD}&p%61Res=${paRes}`, { headers })).status).toBe(400);
    expect((await client(server.url, keys.publishableKey).post('/v2/tokens', tokenParams(TEST_PANS.visa), { headers })).status).toBe(200);
    expect((await client(server.url, UNKNOWN_KEY).get('/v2/charges')).status).toBe(401);
    expect((await api.post('/v2/tokens', { password: PASSWORD }, { encoding: 'json', headers })).status).toBe(400);
    // Card data a client wrongly put in a URL: refused, and never in the request line.
    const pan = TEST_PANS.mastercardDebit;
    expect((await api.post(`/v2/tokens?card[number]=${pan}&card[cvc]=${CVC}`, tokenParams(TEST_PANS.visa))).status).toBe(400);
    expect((await api.get(`/v2/charges?note=${pan.slice(0, 4)}%20${pan.slice(4, 8)}-${pan.slice(8)}&cvc=${CVC}`)).status).toBe(400);
    expect((await api.get(`/v2/tokens/${pan}`)).status).toBe(404);
    expect((await api.get(`/v2/no_such_route/${pan.slice(0, 8)}%20${pan.slice(8)}`)).status).toBe(404);
    // The last request is logged as done before the checks read the output.
    await client(server.url, keys.secretKey).get('/v2/charges/log-redaction-last');
    await server.waitForOutput('log-redaction-last');

    const output = server.output();
    expect(output).toContain(`/3d-secure/${charge.id}`);
    for (const secret of [
      paRes,
      redirect.search,
      keys.secretKey,
      keys.publishableKey,
      UNKNOWN_KEY,
      COOKIE_VALUE,
      PASSWORD,
      TEST_PANS.mastercardDebit,
      TEST_PANS.mastercardDebit.slice(8),
      `cvc=${CVC}`,
    ]) {
      expect(output.includes(secret), `the log carries ${secret.slice(0, 12)}…`).toBe(false);
    }
  });

  it('logs no card number put in a query parameter’s name', async () => {
    const amex = '378282246310005';
    const urls = [`/v2/charges?${amex}`, `/v2/charges?a[${amex}]=1`, `/v2/charges?${amex}=x&limit=2`, `/v2/charges?x=1&${amex.slice(0, 6)}%20${amex.slice(6)}`];
    for (const url of urls) expect((await api.get(url)).status).toBeLessThan(500);
    await client(server.url, keys.secretKey).get('/v2/charges/log-redaction-names');
    await server.waitForOutput('log-redaction-names');

    const output = server.output();
    expect(output).toContain('/v2/charges?[redacted]');
    expect(output).toContain('/v2/charges?x=1&[redacted]');
    for (const leak of [amex, amex.slice(6)]) expect(output.includes(leak), `the log carries ${leak}`).toBe(false);
  });
});
