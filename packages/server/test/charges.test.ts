import { type Charge, ChargeSchema } from '@payframe/contract';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import { expectError, expectErrorBody } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authenticateCharge,
  type Client,
  captureCharge,
  chargeParams,
  client,
  createCharge,
  createToken,
  expectResource,
  retrieveCharge,
  TEST_PANS,
} from './client.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CARD_FIELDS = [
  'addressCity',
  'addressCountry',
  'addressLine1',
  'addressLine2',
  'addressState',
  'addressZip',
  'authorization',
  'bank',
  'brand',
  'country',
  'fundingType',
  'last4Digits',
  'name',
  'type',
];
const CHARGE_FIELDS = [
  'amount',
  'amount_captured',
  'amount_refunded',
  'created',
  'currency',
  'description',
  'fees',
  'id',
  'metadata',
  'mode',
  'reason',
  'status',
  'threedSecure',
  'token',
  'txn_reference',
  'type',
];

let server: InProcessTestServer;
let api: Client;

beforeAll(async () => {
  server = await startInProcess();
  const keys = await createKeys(server.dataDir, 'charges');
  api = client(server, keys.secretKey);
});
afterAll(() => server?.stop());

const nowSeconds = () => Math.floor(Date.now() / 1000);

async function authenticated(number: string, result: 'success' | 'failure'): Promise<Charge> {
  const charge = await createCharge(api, number);
  expect(charge.threedSecure.status).toBe('PENDING');
  return authenticateCharge(api, charge.id, result);
}

describe('token object', () => {
  it('has exactly the spec fields, with the address null when none is given', async () => {
    const before = nowSeconds();
    const body = await createToken(api, TEST_PANS.visa);
    const after = nowSeconds();
    expect(Object.keys(body).sort()).toEqual(['card', 'created', 'id', 'mode', 'type']);
    expect(Object.keys(body.card).sort()).toEqual(CARD_FIELDS);
    expect(body.type).toBe('token');
    expect(body.id).toMatch(UUID);
    expect(body.mode).toBe('test');
    expect(Number.isInteger(body.created)).toBe(true);
    expect(body.created).toBeGreaterThanOrEqual(before);
    expect(body.created).toBeLessThanOrEqual(after);
    expect(body.card).toEqual({
      fundingType: 'CREDIT',
      country: 'US',
      last4Digits: '4242',
      type: 'VISA_CREDIT',
      brand: 'VISA',
      bank: expect.any(String),
      name: 'Ada Lovelace',
      authorization: 'NOT_AVAILABLE',
      addressLine1: null,
      addressLine2: null,
      addressCity: null,
      addressState: null,
      addressZip: null,
      addressCountry: null,
    });
    expect(body.card.bank.length).toBeGreaterThan(0);
  });

  it('fills the address fields from address[...]', async () => {
    const body = await createToken(api, TEST_PANS.visa, {
      address: {
        address_line1: '12 Rue de Rivoli',
        address_line2: 'Bâtiment B',
        city: 'Paris',
        state: 'Île-de-France',
        zipcode: '75001',
        country: 'FR',
      },
    });
    expect(body.card).toMatchObject({
      addressLine1: '12 Rue de Rivoli',
      addressLine2: 'Bâtiment B',
      addressCity: 'Paris',
      addressState: 'Île-de-France',
      addressZip: '75001',
      addressCountry: 'FR',
    });
  });

  it('gives null for the address fields that were not sent', async () => {
    const body = await createToken(api, TEST_PANS.visa, { address: { city: 'Lyon' } });
    expect(body.card).toMatchObject({
      addressLine1: null,
      addressLine2: null,
      addressCity: 'Lyon',
      addressState: null,
      addressZip: null,
      addressCountry: null,
    });
  });

  it('is returned unchanged by GET /v2/tokens/:id', async () => {
    const created = await createToken(api, TEST_PANS.mastercard3ds, { address: { address_line1: '1 High St', zipcode: 'SW1A 1AA', country: 'GB' } });
    const retrieved = await api.get(`/v2/tokens/${created.id}`);
    expect(retrieved.status).toBe(200);
    expect(retrieved.body).toEqual(created);
  });

  it('answers 404 RESOURCE_MISSING for an unknown token id', async () => {
    expectError(await api.get('/v2/tokens/00000000-0000-4000-8000-000000000000'), 404, 'RESOURCE_MISSING');
  });
});

describe('the test cards', () => {
  for (const card of Object.values(TEST_CARDS)) {
    const reason = 'declineReason' in card.outcome ? card.outcome.declineReason : undefined;
    const outcome = card.outcome.approved ? 'approved' : `402 ${card.outcome.code} ${reason ?? ''}`.trim();
    it(`${card.number}: ${card.brand} ${card.funding} ${card.country} ${card.authorization}, ${outcome}`, async () => {
      const body = await createToken(api, card.number);
      expect(body.card).toMatchObject({
        brand: card.brand,
        fundingType: card.funding,
        type: `${card.brand}_${card.funding}`,
        country: card.country,
        authorization: card.authorization,
        last4Digits: card.number.slice(-4),
      });

      const charge = await api.post('/v2/charges', chargeParams(body.id));
      if (!card.outcome.approved) {
        const error = expectError(charge, 402, card.outcome.code);
        expect(error.type).toBe('card_error');
        expect(error.error.decline_reason).toBe(reason);
      } else {
        const created = expectResource(charge, ChargeSchema);
        expect(created.status).toBe('PENDING');
        expect(created.threedSecure.status).toBe(card.authorization === 'REQUIRED' ? 'PENDING' : 'NOT_AVAILABLE');
      }
      // Approved or declined, the first attempt consumed the token.
      expectError(await api.post('/v2/charges', chargeParams(body.id)), 402, 'TOKEN_ALREADY_USED');
    });
  }
});

describe('charge object', () => {
  it('has the spec fields plus amount_captured, amount_refunded, reason and metadata, with the documented values', async () => {
    const tokenBody = await createToken(api, TEST_PANS.visa3ds);
    const before = nowSeconds();
    const response = await api.post('/v2/charges', chargeParams(tokenBody.id, { currency: 'eur', amount: '500', description: 'Order #42' }));
    const after = nowSeconds();
    const charge = expectResource(response, ChargeSchema);
    expect(Object.keys(charge).sort()).toEqual(CHARGE_FIELDS);
    expect(charge.type).toBe('charge');
    expect(charge.id).toMatch(/^C\d{16,}$/);
    expect(charge.currency).toBe('EUR');
    expect(charge.amount).toBe(500);
    expect(charge.amount_captured).toBe(0);
    expect(charge.amount_refunded).toBe(0);
    expect(charge.metadata).toEqual({});
    expect(charge.fees).toBeNull();
    expect(charge.description).toBe('Order #42');
    expect(charge.txn_reference).toBeNull();
    expect(charge.status).toBe('PENDING');
    expect(charge.reason).toBeNull();
    expect(charge.mode).toBe('test');
    expect(Number.isInteger(charge.created)).toBe(true);
    expect(charge.created).toBeGreaterThanOrEqual(before);
    expect(charge.created).toBeLessThanOrEqual(after);

    expect(Object.keys(charge.threedSecure).sort()).toEqual(['redirect', 'returnUrl', 'status', 'transStatus']);
    expect(charge.threedSecure.returnUrl).toBe('https://shop.example/return');
    expect(charge.threedSecure.status).toBe('PENDING');
    expect(charge.threedSecure.transStatus).toBeNull();
    const prefix = `${server.url}/3d-secure/${charge.id}?paRes=`;
    expect(charge.threedSecure.redirect.startsWith(prefix), charge.threedSecure.redirect).toBe(true);
    expect(charge.threedSecure.redirect.slice(prefix.length)).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    // The token inside a charge: the token's own fields, without mode.
    const { mode, ...withoutMode } = tokenBody;
    expect(mode).toBe('test');
    expect(charge.token).toEqual(withoutMode);
    expect(charge.token).not.toHaveProperty('mode');

    expect(await retrieveCharge(api, charge.id)).toEqual(charge);
  });

  it('gives each charge its own id and its own redirect', async () => {
    const [first, second] = await Promise.all([createCharge(api, TEST_PANS.visa3ds), createCharge(api, TEST_PANS.visa3ds)]);
    expect(first.id).not.toBe(second.id);
    expect(first.threedSecure.redirect).not.toBe(second.threedSecure.redirect);
    const paRes = (redirect: string) => new URL(redirect).searchParams.get('paRes');
    expect(paRes(first.threedSecure.redirect)).not.toBe(paRes(second.threedSecure.redirect));
  });

  it('returns txn_reference when given', async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { txn_reference: 'INV-2024-0042' });
    expect(charge.txn_reference).toBe('INV-2024-0042');
    expect((await retrieveCharge(api, charge.id)).txn_reference).toBe('INV-2024-0042');
  });

  it('answers 404 RESOURCE_MISSING for an unknown charge id', async () => {
    expectError(await api.get('/v2/charges/C00000000000000000000'), 404, 'RESOURCE_MISSING');
  });

  it('answers 400 RESOURCE_MISSING on token for an unknown token', async () => {
    const response = await api.post('/v2/charges', chargeParams('00000000-0000-4000-8000-000000000000'));
    expectError(response, 400, 'RESOURCE_MISSING', { parameter: 'token' });
  });
});

describe('3-D Secure at creation', () => {
  it('a REQUIRED card starts with 3DS PENDING', async () => {
    const charge = await createCharge(api, TEST_PANS.mastercard3ds);
    expect(charge.token.card.authorization).toBe('REQUIRED');
    expect(charge).toMatchObject({ status: 'PENDING', threedSecure: { status: 'PENDING' } });
  });

  it('a NOT_AVAILABLE card starts with 3DS NOT_AVAILABLE and still has a redirect', async () => {
    const charge = await createCharge(api, TEST_PANS.mastercardDebit);
    expect(charge.token.card.authorization).toBe('NOT_AVAILABLE');
    expect(charge).toMatchObject({ status: 'PENDING', threedSecure: { status: 'NOT_AVAILABLE' } });
    expect(charge.threedSecure.redirect.startsWith(`${server.url}/3d-secure/${charge.id}?paRes=`)).toBe(true);
  });
});

describe('capture', () => {
  it('after successful 3DS: CHARGEABLE → capture → CHARGE_SUCCESS, 3DS CAPTURED, fees 33 on 500', async () => {
    const chargeable = await authenticated(TEST_PANS.visa3ds, 'success');
    expect(chargeable).toMatchObject({ status: 'PENDING', threedSecure: { status: 'CHARGEABLE' }, fees: null });
    expect((await retrieveCharge(api, chargeable.id)).threedSecure.status).toBe('CHARGEABLE');

    const captured = await captureCharge(api, chargeable.id);
    expect(captured).toMatchObject({
      id: chargeable.id,
      status: 'CHARGE_SUCCESS',
      threedSecure: { status: 'CAPTURED' },
      fees: 33,
      amount: 500,
      amount_refunded: 0,
      reason: null,
    });
    expect(captured.threedSecure.redirect).toBe(chargeable.threedSecure.redirect);
    expect(await retrieveCharge(api, chargeable.id)).toEqual(captured);

    expectError(await api.post(`/v2/charges/capture/${chargeable.id}`), 402, 'CHARGE_ALREADY_CAPTURED');
    expectError(await api.post(`/v2/charges/cancel/${chargeable.id}`), 402, 'CHARGE_ALREADY_CAPTURED');
  });

  it('a NOT_AVAILABLE charge captures directly', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    const captured = await captureCharge(api, charge.id);
    expect(captured).toMatchObject({ status: 'CHARGE_SUCCESS', threedSecure: { status: 'CAPTURED' }, fees: 33 });
  });

  it('while 3DS is still PENDING → 402 AUTHENTICATION_REQUIRED, and the charge is unchanged', async () => {
    const charge = await createCharge(api, TEST_PANS.mastercard3ds);
    expectError(await api.post(`/v2/charges/capture/${charge.id}`), 402, 'AUTHENTICATION_REQUIRED');
    expect(await retrieveCharge(api, charge.id)).toEqual(charge);
  });

  it('after failed 3DS → 402 AUTHENTICATION_FAILED', async () => {
    const failed = await authenticated(TEST_PANS.visaFr3ds, 'failure');
    expect(failed).toMatchObject({ status: 'PENDING', threedSecure: { status: 'FAILED' } });
    expectError(await api.post(`/v2/charges/capture/${failed.id}`), 402, 'AUTHENTICATION_FAILED');
    expect(await retrieveCharge(api, failed.id)).toMatchObject({ status: 'PENDING', threedSecure: { status: 'FAILED' }, fees: null });
  });

  it('authenticating twice → 402 AUTHENTICATION_NOT_PENDING', async () => {
    const chargeable = await authenticated(TEST_PANS.visa3ds, 'success');
    const again = await api.post(`/v2/test_helpers/charges/${chargeable.id}/authenticate`, { result: 'failure' });
    expectError(again, 402, 'AUTHENTICATION_NOT_PENDING');
    expect((await retrieveCharge(api, chargeable.id)).threedSecure.status).toBe('CHARGEABLE');
  });
});

describe('cancel', () => {
  it('ends the charge CHARGE_FAILED / CANCEL_USING_API, and then every move answers CHARGE_CANCELED', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    expect(charge.threedSecure.status).toBe('PENDING');
    const canceled = await api.post(`/v2/charges/cancel/${charge.id}`);
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(canceled.body).toMatchObject({
      id: charge.id,
      status: 'CHARGE_FAILED',
      reason: 'CANCEL_USING_API',
      amount: 500,
      amount_refunded: 0,
      fees: null,
      threedSecure: { status: 'NOT_AVAILABLE' },
    });
    expect(await retrieveCharge(api, charge.id)).toEqual(canceled.body);

    expectError(await api.post(`/v2/charges/capture/${charge.id}`), 402, 'CHARGE_CANCELED');
    expectError(await api.post(`/v2/charges/refund/${charge.id}`), 402, 'CHARGE_CANCELED');
    expectError(await api.post(`/v2/charges/refund/${charge.id}`, { amount: '500' }), 402, 'CHARGE_CANCELED');
    expectError(await api.post(`/v2/charges/cancel/${charge.id}`), 402, 'CHARGE_CANCELED');
    expect(await retrieveCharge(api, charge.id)).toEqual(canceled.body);
  });

  it('cancels a NOT_AVAILABLE charge the same way', async () => {
    const charge = await createCharge(api, TEST_PANS.visaDebitIn);
    const canceled = await api.post(`/v2/charges/cancel/${charge.id}`);
    expect(canceled.body).toMatchObject({ status: 'CHARGE_FAILED', reason: 'CANCEL_USING_API', amount_refunded: 0, threedSecure: { status: 'NOT_AVAILABLE' } });
  });
});

describe('currencies and amounts', () => {
  it('JPY (no minor units): amount as given, currency upper case, fees on capture, refund in JPY', async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { amount: '1000', currency: 'jpy' });
    expect(charge).toMatchObject({ currency: 'JPY', amount: 1000, fees: null });
    const captured = await api.post(`/v2/charges/capture/${charge.id}`);
    expect(captured.status).toBe(200);
    // round(1000 × 2.6 %) + 20
    expect(captured.body).toMatchObject({ currency: 'JPY', amount: 1000, fees: 46 });
    const refund = await api.post(`/v2/charges/refund/${charge.id}`, { amount: '300' });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(refund.body).toMatchObject({ currency: 'JPY', amount: 300 });
  });

  it('accepts an amount as a JSON number and a currency in any case', async () => {
    const tokenBody = await createToken(api, TEST_PANS.visa);
    const response = await api.post('/v2/charges', chargeParams(tokenBody.id, { amount: 1234, currency: 'JpY' }), { encoding: 'json' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ amount: 1234, currency: 'JPY' });
  });

  it.each(['usd', 'GBP', 'bhd', 'chf'])('accepts the ISO 4217 code %s and returns it upper case', async (currency) => {
    const charge = await createCharge(api, TEST_PANS.visa, { currency, amount: '1500' });
    expect(charge.currency).toBe(currency.toUpperCase());
    expect(charge.amount).toBe(1500);
  });

  it.each(['XYZ', 'eu', 'EURO', '123', ''])('rejects the currency %j with 400 on currency, without using the token', async (currency) => {
    const tokenBody = await createToken(api, TEST_PANS.visa);
    const response = await api.post('/v2/charges', chargeParams(tokenBody.id, { currency }));
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    const { error } = expectErrorBody(response.body);
    expect(['PARAMETER_INVALID', 'PARAMETER_MISSING']).toContain(error.code);
    expect(error.parameter).toBe('currency');
    // A rejected request consumed nothing: the token still charges.
    expect((await api.post('/v2/charges', chargeParams(tokenBody.id))).status).toBe(200);
  });

  it.each(['0', '10.5', '-100', '1e3', '12a'])('rejects the amount %j with 400 PARAMETER_INVALID on amount', async (amount) => {
    const tokenBody = await createToken(api, TEST_PANS.visa);
    const response = await api.post('/v2/charges', chargeParams(tokenBody.id, { amount, currency: 'jpy' }));
    expectError(response, 400, 'PARAMETER_INVALID', { parameter: 'amount' });
  });
});
