import { randomUUID } from 'node:crypto';
import { expectError } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, bracketed, type Client, chargeParams, client, createCharge, createToken, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, type Keys, startServer, type TestServer } from './harness.ts';

/**
 * docs/api.md "Idempotency" over real HTTP: replay, reuse with other parameters, canonical matching,
 * scope, concurrency.
 */

let server: TestServer;
let keys: Keys;
let otherKeys: Keys;
let api: Client;
let other: Client;

beforeAll(async () => {
  server = await startServer();
  [keys, otherKeys] = await Promise.all([createKeys(server.dataDir, 'idempotency'), createKeys(server.dataDir, 'idempotency-other')]);
  api = client(server.url, keys.secretKey);
  other = client(server.url, otherKeys.secretKey);
});
afterAll(() => server?.stop());

const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });
const newKey = () => `idem-${randomUUID()}`;

/** The same status and the very same body: a replay, not a second execution. */
function expectReplay(replay: ApiResponse, first: ApiResponse): void {
  expect(replay.status, JSON.stringify(replay.body)).toBe(first.status);
  expect(replay.headers.get('content-type')).toMatch(/^application\/json/);
  expect(replay.body).toEqual(first.body);
}

async function newToken(using: Client = api, pan: string = TEST_PANS.visa): Promise<string> {
  return (await createToken(using, pan)).id;
}

/** POSTs a body the client helper cannot shape (field order chosen by the caller). */
async function rawPost(path: string, body: RequestInit['body'], headers: Record<string, string>): Promise<ApiResponse> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', body, headers: { 'x-api-key': keys.secretKey, ...headers } });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), headers: response.headers };
}

describe('replay', () => {
  it('answers a retry of a charge with the same status and body, and charges once', async () => {
    const token = await newToken();
    const key = newKey();
    const first = await api.post('/v2/charges', chargeParams(token), withKey(key));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ type: 'charge', status: 'PENDING', token: { id: token } });

    const replay = await api.post('/v2/charges', chargeParams(token), withKey(key));
    expectReplay(replay, first);
    // Had the retry run again it would have met the spent token; without a key it does.
    expectError(await api.post('/v2/charges', chargeParams(token)), 402, 'TOKEN_ALREADY_USED');
  });

  it('replays the stored response, not the current state of the object', async () => {
    const token = await newToken();
    const key = newKey();
    const first = await api.post('/v2/charges', chargeParams(token), withKey(key));
    expect((await api.post(`/v2/charges/capture/${first.body.id}`)).body.status).toBe('CHARGE_SUCCESS');
    const replay = await api.post('/v2/charges', chargeParams(token), withKey(key));
    expectReplay(replay, first);
    expect(replay.body.status).toBe('PENDING');
  });

  it('replays a 402 decline with the same body instead of TOKEN_ALREADY_USED', async () => {
    const token = await newToken(api, TEST_PANS.insufficientFunds);
    const key = newKey();
    const first = await api.post('/v2/charges', chargeParams(token), withKey(key));
    expectError(first, 402, 'DECLINED');
    expect(first.body.error.decline_reason).toBe('INSUFFICIENT_FUNDS');
    const replay = await api.post('/v2/charges', chargeParams(token), withKey(key));
    expectReplay(replay, first);
    expectError(await api.post('/v2/charges', chargeParams(token), withKey(newKey())), 402, 'TOKEN_ALREADY_USED');
  });

  it('replays a lifecycle error even after the charge could move on', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    const key = newKey();
    const first = await api.post(`/v2/charges/capture/${charge.id}`, undefined, withKey(key));
    expectError(first, 402, 'AUTHENTICATION_REQUIRED');
    expect((await api.post(`/v2/test_helpers/charges/${charge.id}/authenticate`, { result: 'success' })).status).toBe(200);
    expectReplay(await api.post(`/v2/charges/capture/${charge.id}`, undefined, withKey(key)), first);
    // A new key is a new request, and now it succeeds.
    expect((await api.post(`/v2/charges/capture/${charge.id}`, undefined, withKey(newKey()))).body.status).toBe('CHARGE_SUCCESS');
  });

  it('replays a capture instead of answering CHARGE_ALREADY_CAPTURED', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    const key = newKey();
    const first = await api.post(`/v2/charges/capture/${charge.id}`, undefined, withKey(key));
    expect(first.body).toMatchObject({ status: 'CHARGE_SUCCESS', fees: 33 });
    expectReplay(await api.post(`/v2/charges/capture/${charge.id}`, undefined, withKey(key)), first);
  });

  it('refunds once however often a partial refund is retried', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    expect((await api.post(`/v2/charges/capture/${charge.id}`)).status).toBe(200);
    const key = newKey();
    const first = await api.post(`/v2/charges/refund/${charge.id}`, { amount: '100' }, withKey(key));
    expect(first.body).toMatchObject({ type: 'refund', amount: 100, status: 'REFUNDED' });
    for (let retry = 0; retry < 3; retry++) {
      expectReplay(await api.post(`/v2/charges/refund/${charge.id}`, { amount: '100' }, withKey(key)), first);
    }
    expect((await api.get(`/v2/charges/${charge.id}`)).body).toMatchObject({ status: 'PARTIALLY_REFUNDED', amount_refunded: 100 });
  });

  it('replays token creation with the same token id, for a publishable key too', async () => {
    for (const using of [api, client(server.url, keys.publishableKey)]) {
      const key = newKey();
      const first = await using.post('/v2/tokens', tokenParams(TEST_PANS.visa), withKey(key));
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expectReplay(await using.post('/v2/tokens', tokenParams(TEST_PANS.visa), withKey(key)), first);
    }
  });

  it('accepts a key of 255 characters and refuses one of 256', async () => {
    const token = await newToken();
    const long = `${randomUUID()}${'k'.repeat(219)}`;
    expect(long).toHaveLength(255);
    const first = await api.post('/v2/charges', chargeParams(token), withKey(long));
    expect(first.status).toBe(200);
    expectReplay(await api.post('/v2/charges', chargeParams(token), withKey(long)), first);
    const refused = await api.post('/v2/charges', chargeParams(await newToken()), withKey(`${long}k`));
    expectError(refused, 400, 'PARAMETER_INVALID');
  });
});

describe('same key, different request', () => {
  it('answers different parameters with 400 IDEMPOTENCY_KEY_REUSED (idempotency_error), and keeps the first response', async () => {
    const token = await newToken();
    const key = newKey();
    const first = await api.post('/v2/charges', chargeParams(token), withKey(key));
    expect(first.status).toBe(200);
    for (const changed of [{ amount: '501' }, { currency: 'usd' }, { description: 'Order #2' }, { txn_reference: 'INV-1' }]) {
      const reused = await api.post('/v2/charges', chargeParams(token, changed), withKey(key));
      expectError(reused, 400, 'IDEMPOTENCY_KEY_REUSED');
      expect(reused.body.message).toBe(reused.body.error.message);
    }
    expectReplay(await api.post('/v2/charges', chargeParams(token), withKey(key)), first);
  });

  it('answers the same key on another path with IDEMPOTENCY_KEY_REUSED', async () => {
    const first = await createCharge(api, TEST_PANS.visa);
    const second = await createCharge(api, TEST_PANS.visa);
    const key = newKey();
    expect((await api.post(`/v2/charges/capture/${first.id}`, undefined, withKey(key))).status).toBe(200);
    expectError(await api.post(`/v2/charges/capture/${second.id}`, undefined, withKey(key)), 400, 'IDEMPOTENCY_KEY_REUSED');
    expectError(await api.post(`/v2/charges/cancel/${first.id}`, undefined, withKey(key)), 400, 'IDEMPOTENCY_KEY_REUSED');
    // The refused requests did nothing.
    expect((await api.get(`/v2/charges/${second.id}`)).body.status).toBe('PENDING');
  });
});

describe('matching is on the parsed parameters', () => {
  it('ignores field order and encoding: form, reordered form, multipart, JSON strings, JSON numbers', async () => {
    const token = await newToken();
    const key = newKey();
    const params = chargeParams(token, { amount: '750', txn_reference: 'INV-9' });
    const first = await api.post('/v2/charges', params, withKey(key));
    expect(first.status, JSON.stringify(first.body)).toBe(200);

    const fields = bracketed(params);
    const reordered = await rawPost('/v2/charges', new URLSearchParams([...fields].reverse()), {
      'idempotency-key': key,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expectReplay(reordered, first);

    const multipart = new FormData();
    for (const [name, value] of [...fields].reverse()) multipart.append(name, value);
    expectReplay(await rawPost('/v2/charges', multipart, { 'idempotency-key': key }), first);

    expectReplay(await api.post('/v2/charges', params, { ...withKey(key), encoding: 'json' }), first);
    expectReplay(await api.post('/v2/charges', { ...params, amount: 750 }, { ...withKey(key), encoding: 'json' }), first);
    const reversedJson = JSON.stringify(Object.fromEntries(Object.entries({ ...params, amount: 750 }).reverse()));
    expectReplay(await rawPost('/v2/charges', reversedJson, { 'idempotency-key': key, 'content-type': 'application/json' }), first);

    // A different value in another encoding is still a different request.
    expectError(await api.post('/v2/charges', { ...params, amount: 751 }, { ...withKey(key), encoding: 'json' }), 400, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('matches nested token parameters across encodings', async () => {
    const key = newKey();
    const params = tokenParams(TEST_PANS.mastercardDebit);
    const first = await api.post('/v2/tokens', params, withKey(key));
    expect(first.status).toBe(200);
    expectReplay(await api.post('/v2/tokens', params, { ...withKey(key), encoding: 'multipart' }), first);
    const card = params.card as Record<string, unknown>;
    const numbers = { ...params, card: { ...card, exp_month: Number(card.exp_month), exp_year: Number(card.exp_year) } };
    expectReplay(await api.post('/v2/tokens', numbers, { ...withKey(key), encoding: 'json' }), first);
  });
});

describe('scope', () => {
  it('keeps keys per account: another account can use the same key', async () => {
    const key = newKey();
    const mine = await api.post('/v2/charges', chargeParams(await newToken(api)), withKey(key));
    expect(mine.status).toBe(200);
    const theirs = await other.post('/v2/charges', chargeParams(await newToken(other)), withKey(key));
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.body.token.id).not.toBe(mine.body.token.id);
    // Neither account sees the other's response, and each still replays its own.
    expect((await other.get(`/v2/charges/${mine.body.id}`)).status).toBe(404);
    expect((await api.post('/v2/charges', chargeParams(mine.body.token.id), withKey(key))).body).toEqual(mine.body);
    expect((await other.post('/v2/charges', chargeParams(theirs.body.token.id), withKey(key))).body).toEqual(theirs.body);
  });

  it("does not replay one account's response to another sending the same parameters", async () => {
    const key = newKey();
    const token = await newToken(api);
    const mine = await api.post('/v2/charges', chargeParams(token), withKey(key));
    expect(mine.status).toBe(200);
    // The same body from the other account runs as its own request: the token is not theirs.
    const theirs = await other.post('/v2/charges', chargeParams(token), withKey(key));
    expectError(theirs, 400, 'RESOURCE_MISSING');
  });
});

describe('concurrency', () => {
  it('creates exactly one charge from concurrent requests with one key', async () => {
    for (let round = 0; round < 5; round++) {
      const token = await newToken();
      const key = newKey();
      const results = await Promise.all(Array.from({ length: 8 }, () => api.post('/v2/charges', chargeParams(token), withKey(key))));

      const succeeded = results.filter((result) => result.status === 200);
      const others = results.filter((result) => result.status !== 200);
      expect(succeeded.length, `round ${round}`).toBeGreaterThanOrEqual(1);
      expect(new Set(succeeded.map((result) => result.body.id)).size, `round ${round}`).toBe(1);
      for (const result of succeeded) expect(result.body).toEqual(succeeded[0]!.body);
      for (const result of others) expectError(result, 409, 'IDEMPOTENCY_CONFLICT');

      const charge = succeeded[0]!.body;
      // The conflicted requests may retry: they get the one charge.
      expect((await api.post('/v2/charges', chargeParams(token), withKey(key))).body.id).toBe(charge.id);
      // The token was consumed once, by that charge.
      expectError(await api.post('/v2/charges', chargeParams(token)), 402, 'TOKEN_ALREADY_USED');
      expect((await api.get(`/v2/charges/${charge.id}`)).body).toMatchObject({ status: 'PENDING', token: { id: token } });
    }
  });

  describe('across two server processes on one store', () => {
    let second: TestServer;
    beforeAll(async () => {
      second = await startServer({ dataDir: server.dataDir });
    });
    afterAll(() => second?.stop());

    // Within one process the requests queue on the database connection, so followers mostly get replays;
    // across processes they really overlap, and the in-flight ones must answer 409, never run twice.
    it('creates exactly one charge when the same request reaches both at once', async () => {
      const apis = [api, client(second.url, keys.secretKey)];
      for (let round = 0; round < 10; round++) {
        const token = await newToken();
        const key = newKey();
        const results = await Promise.all(Array.from({ length: 8 }, (_, index) => apis[index % 2]!.post('/v2/charges', chargeParams(token), withKey(key))));
        const succeeded = results.filter((result) => result.status === 200);
        expect(succeeded.length, `round ${round}`).toBeGreaterThanOrEqual(1);
        for (const result of succeeded) expect(result.body).toEqual(succeeded[0]!.body);
        for (const result of results.filter((result) => result.status !== 200)) {
          expectError(result, 409, 'IDEMPOTENCY_CONFLICT');
        }
        const charge = succeeded[0]!.body;
        for (const using of apis) expect((await using.post('/v2/charges', chargeParams(token), withKey(key))).body).toEqual(charge);
        expectError(await apis[1]!.post('/v2/charges', chargeParams(token)), 402, 'TOKEN_ALREADY_USED');
      }
    });
  });

  it('refunds once from concurrent retries of one partial refund', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    expect((await api.post(`/v2/charges/capture/${charge.id}`)).status).toBe(200);
    const key = newKey();
    const results = await Promise.all(Array.from({ length: 6 }, () => api.post(`/v2/charges/refund/${charge.id}`, { amount: '100' }, withKey(key))));
    const succeeded = results.filter((result) => result.status === 200);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    expect(new Set(succeeded.map((result) => result.body.id)).size).toBe(1);
    for (const result of results.filter((result) => result.status !== 200)) expectError(result, 409, 'IDEMPOTENCY_CONFLICT');
    expect((await api.get(`/v2/charges/${charge.id}`)).body).toMatchObject({ status: 'PARTIALLY_REFUNDED', amount_refunded: 100 });
  });
});
