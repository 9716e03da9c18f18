import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  CardError,
  IdempotencyError,
  InvalidRequestError,
  Payframe,
  PayframeError,
  PermissionError,
  RateLimitError,
} from '../src/index.ts';
import { chargeParams, createKeys, type Keys, type RunningServer, startServer, TEST_CARDS, tokenParams } from './server.ts';

let server: RunningServer;
let keys: Keys;
let payframe: Payframe;

beforeAll(async () => {
  server = await startServer();
  keys = await createKeys(server.dataDir, 'sdk-shop');
  payframe = new Payframe(keys.secretKey, { apiBase: server.url });
});
afterAll(() => server?.stop());

async function newCharge(number: string = TEST_CARDS.visa) {
  const token = await payframe.tokens.create(tokenParams(number));
  return payframe.charges.create(chargeParams(token.id));
}

describe('@payframe/node against a real server', () => {
  it('creates and retrieves a token', async () => {
    const token = await payframe.tokens.create(tokenParams(TEST_CARDS.visa));
    expect(token).toMatchObject({ type: 'token', mode: 'test', card: { last4Digits: '4242', brand: 'VISA' } });
    expect(await payframe.tokens.retrieve(token.id)).toEqual(token);
  });

  it('creates, retrieves and captures a charge that needs no 3-D Secure', async () => {
    const charge = await newCharge();
    expect(charge).toMatchObject({ type: 'charge', status: 'PENDING', amount: 500, currency: 'EUR' });
    expect(await payframe.charges.retrieve(charge.id)).toEqual(charge);
    const captured = await payframe.charges.capture(charge.id);
    expect(captured).toMatchObject({ status: 'CHARGE_SUCCESS', fees: 33, threedSecure: { status: 'CAPTURED' } });
  });

  it('settles 3-D Secure through the test helper, then captures', async () => {
    const charge = await newCharge(TEST_CARDS.visa3ds);
    expect(charge.threedSecure.status).toBe('PENDING');
    const authenticated = await payframe.testHelpers.authenticate(charge.id, { result: 'success' });
    expect(authenticated.threedSecure.status).toBe('CHARGEABLE');
    expect((await payframe.charges.capture(charge.id)).status).toBe('CHARGE_SUCCESS');
  });

  it('captures part of a charge, refunds within it, and updates metadata (charges.update)', async () => {
    const charge = await payframe.charges.create({
      ...chargeParams((await payframe.tokens.create(tokenParams(TEST_CARDS.visa))).id),
      amount: 1000,
      metadata: { order: '7' },
    });
    expect(charge.metadata).toEqual({ order: '7' });
    const captured = await payframe.charges.capture(charge.id, { amount: 400 });
    expect(captured).toMatchObject({ status: 'CHARGE_SUCCESS', amount_captured: 400, amount_refunded: 0 });
    const refund = await payframe.refunds.create(charge.id, { metadata: { why: 'damaged' } });
    expect(refund).toMatchObject({ amount: 400, metadata: { why: 'damaged' } });
    const updated = await payframe.charges.update(charge.id, { metadata: { order: '', channel: 'web' } });
    expect(updated).toMatchObject({ status: 'REFUNDED', metadata: { channel: 'web' } });
  });

  it('a refund of more than remains is an InvalidRequestError (402), not a CardError', async () => {
    const charge = await payframe.charges.capture((await newCharge()).id);
    const error = await payframe.refunds.create(charge.id, { amount: 501 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).not.toBeInstanceOf(CardError);
    expect(error).toMatchObject({ status: 402, type: 'invalid_request_error', code: 'AMOUNT_EXCEEDS_REMAINING' });
  });

  it('cancels a pending charge', async () => {
    const charge = await newCharge();
    expect(await payframe.charges.cancel(charge.id)).toMatchObject({ status: 'CHARGE_FAILED', reason: 'CANCEL_USING_API' });
  });

  it('refunds in part and in full, and retrieves a refund', async () => {
    const charge = await payframe.charges.capture((await newCharge()).id);
    const partial = await payframe.refunds.create(charge.id, { amount: 200 });
    expect(partial).toMatchObject({ type: 'refund', charge: charge.id, amount: 200 });
    expect(await payframe.refunds.retrieve(partial.id)).toEqual(partial);
    const rest = await payframe.refunds.create(charge.id);
    expect(rest.amount).toBe(300);
    expect(await payframe.charges.retrieve(charge.id)).toMatchObject({ status: 'REFUNDED', amount_refunded: 500 });
  });

  it('expires one charge and one token now, moving no clock', async () => {
    const charge = await newCharge(TEST_CARDS.visa3ds);
    const clock = await payframe.testHelpers.clock.retrieve();
    expect(await payframe.testHelpers.charges.expire(charge.id)).toMatchObject({ id: charge.id, status: 'REFUNDED', reason: 'EXPIRED' });
    const token = await payframe.tokens.create(tokenParams(TEST_CARDS.visa));
    expect(await payframe.testHelpers.tokens.expire(token.id)).toEqual(token);
    const refused = await payframe.charges.create(chargeParams(token.id)).catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ status: 402, code: 'TOKEN_EXPIRED' });
    expect((await payframe.testHelpers.clock.retrieve()).offset).toBe(clock.offset);
  });

  it("moves the account's test clock past a charge's expiry", async () => {
    const charge = await newCharge();
    const before = await payframe.testHelpers.clock.retrieve();
    expect(before).toMatchObject({ type: 'test_clock' });
    const after = await payframe.testHelpers.clock.advance({ advance_seconds: 7 * 24 * 3600 });
    expect(after.offset).toBe(before.offset + 7 * 24 * 3600);
    expect(await payframe.charges.retrieve(charge.id)).toMatchObject({ status: 'REFUNDED', reason: 'EXPIRED' });
  });
});

describe('errors are classes by the answer type', () => {
  it('CardError carries the decline reason', async () => {
    const error = await newCharge(TEST_CARDS.insufficientFunds).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CardError);
    expect(error).toBeInstanceOf(PayframeError);
    expect(error).toMatchObject({ status: 402, type: 'card_error', code: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' });
  });

  it('InvalidRequestError names the parameter', async () => {
    const token = await payframe.tokens.create(tokenParams(TEST_CARDS.visa));
    const error = await payframe.charges.create({ ...chargeParams(token.id), amount: '5.00' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 400, code: 'PARAMETER_INVALID', parameter: 'amount' });
    expect((error as Error).message).not.toBe('');
  });

  it('InvalidRequestError for an unknown id is a 404', async () => {
    const error = await payframe.charges.retrieve('C0000000000000000').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 404, code: 'RESOURCE_MISSING' });
  });

  it('AuthenticationError for an unknown key', async () => {
    const stranger = new Payframe('sk_test_unknown', { apiBase: server.url });
    const error = await stranger.charges.retrieve('C0000000000000000').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
  });

  it('PermissionError for a publishable key on a secret-only route', async () => {
    const browserKey = new Payframe(keys.publishableKey, { apiBase: server.url });
    const error = await browserKey.charges.retrieve('C0000000000000000').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({ status: 403, code: 'PUBLISHABLE_KEY_NOT_ALLOWED' });
  });

  it('IdempotencyError when one key is reused with other parameters', async () => {
    const idempotencyKey = `order-${Date.now()}`;
    const first = await payframe.tokens.create(tokenParams(TEST_CARDS.visa), { idempotencyKey });
    expect(await payframe.tokens.create(tokenParams(TEST_CARDS.visa), { idempotencyKey })).toEqual(first);
    const error = await payframe.tokens.create(tokenParams(TEST_CARDS.visa3ds), { idempotencyKey }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IdempotencyError);
    expect(error).toMatchObject({ status: 400, code: 'IDEMPOTENCY_KEY_REUSED' });
  });
});

describe('RateLimitError', () => {
  it('comes once the retries are spent on a limited key', async () => {
    const limited = await startServer({ PAYFRAME_SECRET_KEY_RATE_LIMIT: '2' });
    try {
      const limitedKeys = await createKeys(limited.dataDir, 'busy-shop');
      const client = new Payframe(limitedKeys.secretKey, { apiBase: limited.url, maxNetworkRetries: 0 });
      await client.testHelpers.clock.retrieve();
      await client.testHelpers.clock.retrieve();
      const error = await client.testHelpers.clock.retrieve().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect((error as RateLimitError).headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.stop();
    }
  });
});
