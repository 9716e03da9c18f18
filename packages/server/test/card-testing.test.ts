import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, client, expectErrorShape, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, type InProcessTestServer, type Keys, startInProcess } from './harness.ts';

/**
 * The card-testing defence (docs/api.md "Rate limits"): a publishable key may create only so many tokens a minute
 * from one client address. A card tester's attempts mostly fail, so failures count too; a forged
 * X-Forwarded-For does not buy a fresh allowance unless it comes from a proxy the operator trusts.
 */

const LIMIT = 3;
let direct: InProcessTestServer;
let proxied: InProcessTestServer;
let directKeys: Keys;
let proxiedKeys: Keys;

beforeAll(async () => {
  const env = { PAYFRAME_TOKEN_RATE_LIMIT: String(LIMIT), PAYFRAME_SECRET_KEY_RATE_LIMIT: String(LIMIT) };
  [direct, proxied] = await Promise.all([startInProcess({ env }), startInProcess({ env, args: ['--trust-proxy', '127.0.0.1'] })]);
  [directKeys, proxiedKeys] = await Promise.all([createKeys(direct.dataDir, 'tester'), createKeys(proxied.dataDir, 'tester')]);
});
afterAll(async () => {
  await Promise.all([direct, proxied].map((server) => server?.stop()));
});

function expectRateLimited(response: ApiResponse): void {
  expect({ status: response.status, code: response.body?.error?.code }, JSON.stringify(response.body)).toEqual({ status: 429, code: 'RATE_LIMITED' });
  expectErrorShape(response.body);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
}

const forwardedFor = (address: string) => ({ headers: { 'x-forwarded-for': address } });

describe('publishable-key token creation', () => {
  it('counts failed attempts too: Luhn-invalid numbers and malformed bodies use up the allowance', async () => {
    const widget = client(direct, directKeys.publishableKey);
    expect((await widget.post('/v2/tokens', tokenParams('4242424242424241'))).status).toBe(402);
    expect((await widget.post('/v2/tokens', tokenParams('4000000000000001'))).status).toBe(402);
    expect((await widget.post('/v2/tokens', { card: { number: 'x' } })).status).toBe(400);
    expectRateLimited(await widget.post('/v2/tokens', tokenParams(TEST_PANS.visa)));
  });

  it('ignores X-Forwarded-For from a client that is not a trusted proxy: forging it buys no fresh allowance', async () => {
    const widget = client(direct, (await createKeys(direct.dataDir, 'forger')).publishableKey);
    for (let attempt = 1; attempt <= LIMIT; attempt++) {
      expect((await widget.post('/v2/tokens', tokenParams(TEST_PANS.visa), forwardedFor(`198.51.100.${attempt}`))).status).toBe(200);
    }
    expectRateLimited(await widget.post('/v2/tokens', tokenParams(TEST_PANS.visa), forwardedFor('198.51.100.99')));
  });

  it('behind a trusted proxy, counts per shopper address: one address is stopped, another still pays', async () => {
    const widget = client(proxied, proxiedKeys.publishableKey);
    for (let attempt = 1; attempt <= LIMIT; attempt++) {
      expect((await widget.post('/v2/tokens', tokenParams(TEST_PANS.visa), forwardedFor('203.0.113.10'))).status).toBe(200);
    }
    expectRateLimited(await widget.post('/v2/tokens', tokenParams(TEST_PANS.visa), forwardedFor('203.0.113.10')));
    expect((await widget.post('/v2/tokens', tokenParams(TEST_PANS.visa), forwardedFor('203.0.113.11'))).status).toBe(200);
  });
});

describe('secret keys', () => {
  it('are limited per key when the operator sets PAYFRAME_SECRET_KEY_RATE_LIMIT, on every route', async () => {
    const server = client(direct, (await createKeys(direct.dataDir, 'merchant')).secretKey);
    expect((await server.get('/v2/test_helpers/clock')).status).toBe(200);
    expect((await server.post('/v2/tokens', tokenParams(TEST_PANS.visa))).status).toBe(200);
    expect((await server.get('/v2/charges/C0000000000000000000')).status).toBe(404);
    expectRateLimited(await server.get('/v2/test_helpers/clock'));
    // Another key of the same server is counted on its own.
    expect((await client(direct, directKeys.secretKey).get('/v2/test_helpers/clock')).status).toBe(200);
  });
});
