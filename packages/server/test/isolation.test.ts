import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, type Client, chargeParams, client, createCharge, expectErrorShape, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';

/** Luhn-valid, not a test card: live mode declines the test cards (TEST_CARD_IN_LIVE_MODE). */
const LIVE_PAN = '4111111111111111';
const HTTPS = { 'x-forwarded-proto': 'https' };

let server: InProcessTestServer;
/** Account "acme", test mode. */
let acme: Client;
/** Account "acme", live mode, through a trusted proxy that terminated TLS. */
let acmeLive: Client;
/** Account "globex", test mode. */
let globex: Client;

/** Live-mode client: every request carries X-Forwarded-Proto: https. */
function viaHttpsProxy(base: Client): Client {
  return {
    get: (path, options) => base.get(path, { ...options, headers: { ...HTTPS, ...options?.headers } }),
    post: (path, params, options) => base.post(path, params, { ...options, headers: { ...HTTPS, ...options?.headers } }),
    request: (method, path, params, options = {}) => base.request(method, path, params, { ...options, headers: { ...HTTPS, ...options.headers } }),
  };
}

beforeAll(async () => {
  server = await startInProcess({ args: ['--trust-proxy', '127.0.0.1', '--live-acquirer', 'simulator'] });
  const [acmeTest, acmeLiveKeys, globexTest] = await Promise.all([
    createKeys(server.dataDir, 'acme', 'test'),
    createKeys(server.dataDir, 'acme', 'live'),
    createKeys(server.dataDir, 'globex', 'test'),
  ]);
  acme = client(server, acmeTest.secretKey);
  acmeLive = viaHttpsProxy(client(server, acmeLiveKeys.secretKey));
  globex = client(server, globexTest.secretKey);
});
afterAll(() => server?.stop());

const unknownTokenId = () => randomUUID();
const unknownRefundId = () => randomUUID();
const unknownChargeId = () => `C${'0123456789'.repeat(2)}`;

/** The answer for someone else's id must be byte for byte the answer for an id that never existed. */
function expectSameAsMissing(actual: ApiResponse, missing: ApiResponse, status = 404): void {
  expect(missing.status).toBe(status);
  expectErrorShape(missing.body);
  expect(missing.body.error.code).toBe('RESOURCE_MISSING');
  expect(actual.status, JSON.stringify(actual.body)).toBe(status);
  expect(actual.body).toEqual(missing.body);
}

/** Token, captured charge with a partial refund, and a pending charge, all in one (account, mode). */
async function objectsOf(api: Client, pan: string) {
  const token = await api.post('/v2/tokens', tokenParams(pan));
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  const captured = await createCharge(api, pan);
  expect((await api.post(`/v2/charges/capture/${captured.id}`)).status).toBe(200);
  const refund = await api.post(`/v2/charges/refund/${captured.id}`, { amount: '100' });
  expect(refund.status, JSON.stringify(refund.body)).toBe(200);
  const pending = await createCharge(api, pan);
  return { token: token.body, captured, refund: refund.body, pending };
}

/** Every read and every move of `owner`'s objects by `other` answers as for unknown ids, and changes nothing. */
async function expectInvisible(owner: Client, other: Client, objects: Awaited<ReturnType<typeof objectsOf>>) {
  const { token, captured, refund, pending } = objects;

  expectSameAsMissing(await other.get(`/v2/tokens/${token.id}`), await other.get(`/v2/tokens/${unknownTokenId()}`));

  for (const charge of [captured, pending]) {
    expectSameAsMissing(await other.get(`/v2/charges/${charge.id}`), await other.get(`/v2/charges/${unknownChargeId()}`));
    expectSameAsMissing(await other.post(`/v2/charges/capture/${charge.id}`), await other.post(`/v2/charges/capture/${unknownChargeId()}`));
    expectSameAsMissing(await other.post(`/v2/charges/cancel/${charge.id}`), await other.post(`/v2/charges/cancel/${unknownChargeId()}`));
    expectSameAsMissing(
      await other.post(`/v2/charges/refund/${charge.id}`, { amount: '50' }),
      await other.post(`/v2/charges/refund/${unknownChargeId()}`, { amount: '50' }),
    );
    expectSameAsMissing(await other.post(`/v2/charges/refund/${charge.id}`), await other.post(`/v2/charges/refund/${unknownChargeId()}`));
  }

  expectSameAsMissing(await other.get(`/v2/charges/refund/${refund.id}`), await other.get(`/v2/charges/refund/${unknownRefundId()}`));

  // The other's token cannot be charged: 400 RESOURCE_MISSING on token, as for a token that never existed.
  const foreign = await other.post('/v2/charges', chargeParams(token.id));
  const missing = await other.post('/v2/charges', chargeParams(unknownTokenId()));
  expectSameAsMissing(foreign, missing, 400);
  expect(foreign.body.error.parameter).toBe('token');

  // Nothing moved: the owner still sees its objects as they were, and its token still charges.
  expect((await owner.get(`/v2/charges/${pending.id}`)).body).toEqual(pending);
  expect((await owner.get(`/v2/charges/${captured.id}`)).body).toMatchObject({ status: 'PARTIALLY_REFUNDED', amount_refunded: 100 });
  expect((await owner.get(`/v2/charges/refund/${refund.id}`)).body).toEqual(refund);
  expect((await owner.get(`/v2/tokens/${token.id}`)).body).toEqual(token);
  const charged = await owner.post('/v2/charges', chargeParams(token.id));
  expect(charged.status, JSON.stringify(charged.body)).toBe(200);
}

describe('between accounts', () => {
  it("another account's token, charge and refund ids answer 404 RESOURCE_MISSING exactly like unknown ids", async () => {
    await expectInvisible(acme, globex, await objectsOf(acme, TEST_PANS.visa));
  });

  it('the isolation holds both ways', async () => {
    await expectInvisible(globex, acme, await objectsOf(globex, TEST_PANS.mastercardDebit));
  });

  it("another account cannot authenticate a charge's 3-D Secure", async () => {
    const charge = await createCharge(acme, TEST_PANS.visa3ds);
    expectSameAsMissing(
      await globex.post(`/v2/test_helpers/charges/${charge.id}/authenticate`, { result: 'failure' }),
      await globex.post(`/v2/test_helpers/charges/${unknownChargeId()}/authenticate`, { result: 'failure' }),
    );
    expect((await acme.get(`/v2/charges/${charge.id}`)).body.threedSecure.status).toBe('PENDING');
  });
});

describe('between modes of one account', () => {
  it('the live key is refused over plain HTTP, and works through the trusted proxy', async () => {
    const plain = client(server, (await createKeys(server.dataDir, 'acme', 'live')).secretKey);
    const refused = await plain.get(`/v2/tokens/${unknownTokenId()}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('HTTPS_REQUIRED');
    const token = await acmeLive.post('/v2/tokens', tokenParams(LIVE_PAN));
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect(token.body.mode).toBe('live');
  });

  it('test-mode objects are invisible to the same account’s live key', async () => {
    const objects = await objectsOf(acme, TEST_PANS.visa);
    expect(objects.pending.mode).toBe('test');
    await expectInvisible(acme, acmeLive, objects);
  });

  it('live-mode objects are invisible to the same account’s test key', async () => {
    const objects = await objectsOf(acmeLive, LIVE_PAN);
    expect(objects.token.mode).toBe('live');
    expect(objects.pending.mode).toBe('live');
    expect(objects.refund.mode).toBe('live');
    await expectInvisible(acmeLive, acme, objects);
  });

  it("live-mode objects are invisible to another account's test key", async () => {
    await expectInvisible(acmeLive, globex, await objectsOf(acmeLive, LIVE_PAN));
  });
});
