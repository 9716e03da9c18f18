import { type Charge, RefundSchema } from '@payframe/contract';
import { expectError } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateCharge, type Client, captureCharge, client, createCharge, expectResource, refundCharge, retrieveCharge, TEST_PANS } from './client.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const REFUND_FIELDS = ['amount', 'charge', 'created', 'currency', 'fee_refunded', 'id', 'metadata', 'mode', 'status', 'type'];

let server: InProcessTestServer;
let api: Client;

beforeAll(async () => {
  server = await startInProcess();
  const keys = await createKeys(server.dataDir, 'refunds');
  api = client(server, keys.secretKey);
});
afterAll(() => server?.stop());

async function capturedCharge(overrides: Record<string, unknown> = {}): Promise<Charge> {
  const captured = await captureCharge(api, (await createCharge(api, TEST_PANS.visa, overrides)).id);
  expect(captured.status).toBe('CHARGE_SUCCESS');
  return captured;
}

describe('refunds of a captured charge', () => {
  it('refund object: exactly the spec fields plus charge, and GET /v2/charges/refund/:refundId returns it', async () => {
    const charge = await capturedCharge();
    const before = Date.now();
    const body = await refundCharge(api, charge.id, 100);
    const after = Date.now();
    expect(Object.keys(body).sort()).toEqual(REFUND_FIELDS);
    expect(body).toMatchObject({
      type: 'refund',
      charge: charge.id,
      currency: 'EUR',
      amount: 100,
      fee_refunded: 0,
      status: 'REFUNDED',
      mode: 'test',
    });
    expect(body.id).toMatch(UUID);
    expect(body.id).not.toBe(charge.token.id);
    // UTC, second precision, no zone designator.
    expect(body.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const created = Date.parse(`${body.created}Z`);
    expect(created).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(created).toBeLessThanOrEqual(after);

    const retrieved = await api.get(`/v2/charges/refund/${body.id}`);
    expect(retrieved.status).toBe(200);
    expect(retrieved.body).toEqual(body);
  });

  it('partial refunds: PARTIALLY_REFUNDED, then REFUNDED, amount_refunded summing them', async () => {
    const charge = await capturedCharge({ amount: '500' });

    const first = await refundCharge(api, charge.id, 100);
    expect(first.amount).toBe(100);
    expect(await retrieveCharge(api, charge.id)).toMatchObject({
      status: 'PARTIALLY_REFUNDED',
      amount_refunded: 100,
      amount: 500,
      fees: 33,
      threedSecure: { status: 'CAPTURED' },
    });

    const second = await refundCharge(api, charge.id, 150);
    expect(second.amount).toBe(150);
    expect(second.id).not.toBe(first.id);
    expect(await retrieveCharge(api, charge.id)).toMatchObject({ status: 'PARTIALLY_REFUNDED', amount_refunded: 250 });

    expectError(await api.post(`/v2/charges/refund/${charge.id}`, { amount: '251' }), 402, 'AMOUNT_EXCEEDS_REMAINING');
    expect(await retrieveCharge(api, charge.id)).toMatchObject({ status: 'PARTIALLY_REFUNDED', amount_refunded: 250 });

    const last = await refundCharge(api, charge.id, 250);
    expect(last.amount).toBe(250);
    expect(await retrieveCharge(api, charge.id)).toMatchObject({ status: 'REFUNDED', amount_refunded: 500, fees: 33, threedSecure: { status: 'CAPTURED' } });

    // Each refund stays retrievable as it was created.
    for (const each of [first, second, last]) {
      expect((await api.get(`/v2/charges/refund/${each.id}`)).body).toEqual(each);
    }
    expectError(await api.post(`/v2/charges/refund/${charge.id}`), 402, 'CHARGE_ALREADY_REFUNDED');
    expectError(await api.post(`/v2/charges/refund/${charge.id}`, { amount: '1' }), 402, 'CHARGE_ALREADY_REFUNDED');
    expectError(await api.post(`/v2/charges/capture/${charge.id}`), 402, 'CHARGE_ALREADY_REFUNDED');
  });

  it('an omitted amount refunds the whole amount of a captured charge', async () => {
    const charge = await capturedCharge({ amount: '740' });
    const body = await refundCharge(api, charge.id);
    expect(body.amount).toBe(740);
    expect(await retrieveCharge(api, charge.id)).toMatchObject({ status: 'REFUNDED', amount_refunded: 740 });
  });

  it('an omitted amount refunds the remaining balance after a partial refund', async () => {
    const charge = await capturedCharge({ amount: '500' });
    await refundCharge(api, charge.id, 120);
    const rest = await refundCharge(api, charge.id);
    expect(rest.amount).toBe(380);
    expect(await retrieveCharge(api, charge.id)).toMatchObject({ status: 'REFUNDED', amount_refunded: 500 });
  });

  it('refund amounts as a JSON number and in multipart are accepted', async () => {
    const charge = await capturedCharge({ amount: '500' });
    const json = await api.post(`/v2/charges/refund/${charge.id}`, { amount: 200 }, { encoding: 'json' });
    expect(expectResource(json, RefundSchema).amount).toBe(200);
    const multipart = await api.post(`/v2/charges/refund/${charge.id}`, { amount: '50' }, { encoding: 'multipart' });
    expect(expectResource(multipart, RefundSchema).amount).toBe(50);
    expect(await retrieveCharge(api, charge.id)).toMatchObject({ status: 'PARTIALLY_REFUNDED', amount_refunded: 250 });
  });

  it('a refund larger than the amount → 402 AMOUNT_EXCEEDS_REMAINING, nothing refunded', async () => {
    const charge = await capturedCharge({ amount: '500' });
    expectError(await api.post(`/v2/charges/refund/${charge.id}`, { amount: '501' }), 402, 'AMOUNT_EXCEEDS_REMAINING');
    expect(await retrieveCharge(api, charge.id)).toMatchObject({ status: 'CHARGE_SUCCESS', amount_refunded: 0 });
  });

  it.each(['0', '-5', '1.5', '1e2', 'abc'])('amount %j → 400 PARAMETER_INVALID on amount', async (amount) => {
    const charge = await capturedCharge();
    expectError(await api.post(`/v2/charges/refund/${charge.id}`, { amount }), 400, 'PARAMETER_INVALID', { parameter: 'amount' });
    expect(await retrieveCharge(api, charge.id)).toMatchObject({ status: 'CHARGE_SUCCESS', amount_refunded: 0 });
  });
});

describe('refund of an uncaptured charge (release)', () => {
  it('omitted amount releases it whole: REFUNDED, amount_refunded = amount, 3DS NOT_AVAILABLE', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds, { amount: '500' });
    expect(charge.threedSecure.status).toBe('PENDING');
    const body = await refundCharge(api, charge.id);
    expect(body).toMatchObject({ type: 'refund', charge: charge.id, amount: 500, currency: 'EUR', fee_refunded: 0, status: 'REFUNDED' });
    expect(await retrieveCharge(api, charge.id)).toMatchObject({
      status: 'REFUNDED',
      amount: 500,
      amount_refunded: 500,
      fees: null,
      threedSecure: { status: 'NOT_AVAILABLE' },
    });
  });

  it('the full amount given explicitly releases it too', async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { amount: '500' });
    const body = await refundCharge(api, charge.id, 500);
    expect(body.amount).toBe(500);
    expect(await retrieveCharge(api, charge.id)).toMatchObject({ status: 'REFUNDED', amount_refunded: 500, threedSecure: { status: 'NOT_AVAILABLE' } });
  });

  it('releases an authenticated (CHARGEABLE) charge with 3DS NOT_AVAILABLE', async () => {
    const charge = await createCharge(api, TEST_PANS.mastercard3ds);
    const auth = await authenticateCharge(api, charge.id, 'success');
    expect(auth.threedSecure.status).toBe('CHARGEABLE');
    await refundCharge(api, charge.id);
    expect(await retrieveCharge(api, charge.id)).toMatchObject({ status: 'REFUNDED', amount_refunded: 500, threedSecure: { status: 'NOT_AVAILABLE' } });
  });

  it('a smaller amount → 400 PARAMETER_INVALID on amount; a larger one → 402 AMOUNT_EXCEEDS_REMAINING; the charge stays PENDING', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds, { amount: '500' });
    expectError(await api.post(`/v2/charges/refund/${charge.id}`, { amount: '499' }), 400, 'PARAMETER_INVALID', { parameter: 'amount' });
    expectError(await api.post(`/v2/charges/refund/${charge.id}`, { amount: '100' }), 400, 'PARAMETER_INVALID', { parameter: 'amount' });
    expectError(await api.post(`/v2/charges/refund/${charge.id}`, { amount: '501' }), 402, 'AMOUNT_EXCEEDS_REMAINING');
    expect(await retrieveCharge(api, charge.id)).toEqual(charge);
  });

  it('after a release: refund and capture → 402 CHARGE_ALREADY_REFUNDED', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    await refundCharge(api, charge.id);
    expectError(await api.post(`/v2/charges/refund/${charge.id}`), 402, 'CHARGE_ALREADY_REFUNDED');
    expectError(await api.post(`/v2/charges/capture/${charge.id}`), 402, 'CHARGE_ALREADY_REFUNDED');
    expect(await retrieveCharge(api, charge.id)).toMatchObject({ status: 'REFUNDED', amount_refunded: 500, fees: null });
  });
});

describe('retrieval errors', () => {
  it('an unknown refund id → 404 RESOURCE_MISSING', async () => {
    expectError(await api.get('/v2/charges/refund/00000000-0000-4000-8000-000000000000'), 404, 'RESOURCE_MISSING');
  });

  it('a charge id is not a refund id', async () => {
    const charge = await capturedCharge();
    await refundCharge(api, charge.id, 10);
    expectError(await api.get(`/v2/charges/refund/${charge.id}`), 404, 'RESOURCE_MISSING');
  });

  it('refunding an unknown charge → 404 RESOURCE_MISSING', async () => {
    expectError(await api.post('/v2/charges/refund/C00000000000000000000'), 404, 'RESOURCE_MISSING');
  });
});
