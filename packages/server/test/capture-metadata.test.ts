import { ChargeSchema, EventListSchema, RefundSchema } from '@payframe/contract';
import { expectError } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, createCharge, expectResource, retrieveCharge, TEST_PANS } from './client.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';

// Partial capture and metadata (docs/api.md) over real HTTP (both stores: the server-postgres project runs this file too):
// partial capture with amount_captured, and metadata on charges and refunds.

let server: InProcessTestServer;
let api: Client;

beforeAll(async () => {
  server = await startInProcess();
  api = client(server, (await createKeys(server.dataDir, 'capture-metadata')).secretKey);
});
afterAll(() => server?.stop());

async function eventsOf(chargeId: string) {
  return expectResource(await api.get(`/v2/events?charge=${chargeId}&limit=100`), EventListSchema).data.reverse();
}

describe('partial capture', () => {
  it('captures part, fees on the part, the rest released without a refund; refunds bounded by what was captured', async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { amount: '1000' });
    expect(charge.amount_captured).toBe(0);
    const captured = expectResource(await api.post(`/v2/charges/capture/${charge.id}`, { amount: '500' }), ChargeSchema);
    // 2.6 % of 500 + 20: the fees of the spec's example, on the captured part only.
    expect(captured).toMatchObject({ status: 'CHARGE_SUCCESS', amount: 1000, amount_captured: 500, amount_refunded: 0, fees: 33 });
    expect(await retrieveCharge(api, charge.id)).toEqual(captured);
    // The release of the rest is no refund: no refund object, no charge.refunded event.
    expect((await api.get(`/v2/refunds?charge=${charge.id}`)).body.data).toEqual([]);
    expect((await eventsOf(charge.id)).map((event) => event.name)).toEqual(['charge.created', 'charge.captured']);

    expectError(await api.post(`/v2/charges/refund/${charge.id}`, { amount: '501' }), 402, 'AMOUNT_EXCEEDS_REMAINING', { type: 'invalid_request_error' });
    const part = expectResource(await api.post(`/v2/charges/refund/${charge.id}`, { amount: '200' }), RefundSchema);
    expect(part.amount).toBe(200);
    expect((await retrieveCharge(api, charge.id)).status).toBe('PARTIALLY_REFUNDED');
    // No body: the rest of what was captured, and the charge is REFUNDED once they meet.
    const rest = expectResource(await api.post(`/v2/charges/refund/${charge.id}`), RefundSchema);
    expect(rest.amount).toBe(300);
    expect(await retrieveCharge(api, charge.id)).toMatchObject({ status: 'REFUNDED', amount_captured: 500, amount_refunded: 500 });
  });

  it.each(['json', 'multipart', 'form'] as const)('takes the whole amount when amount is omitted or equal (%s)', async (encoding) => {
    const omitted = await createCharge(api, TEST_PANS.visa, { amount: '700' });
    expect(expectResource(await api.post(`/v2/charges/capture/${omitted.id}`, {}, { encoding }), ChargeSchema).amount_captured).toBe(700);
    const equal = await createCharge(api, TEST_PANS.visa, { amount: '700' });
    expect(expectResource(await api.post(`/v2/charges/capture/${equal.id}`, { amount: 700 }, { encoding }), ChargeSchema).amount_captured).toBe(700);
  });

  it('refuses more than the amount, zero or a fraction on amount (400), capturing nothing', async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { amount: '1000' });
    for (const amount of ['1001', '0', '1.5', '-5']) {
      expectError(await api.post(`/v2/charges/capture/${charge.id}`, { amount }), 400, 'PARAMETER_INVALID', { parameter: 'amount' });
    }
    expect(await retrieveCharge(api, charge.id)).toMatchObject({ status: 'PENDING', amount_captured: 0, fees: null });
  });
});

describe('metadata', () => {
  it('is stored on creation and answered on the charge, its events and lists; {} when none', async () => {
    const bare = await createCharge(api, TEST_PANS.visa);
    expect(bare.metadata).toEqual({});
    const charge = await createCharge(api, TEST_PANS.visa, { metadata: { order_id: '42', 'channel.web-1': 'shop', empty: '' } });
    // An empty value has nothing to delete on creation: it is not stored.
    expect(charge.metadata).toEqual({ order_id: '42', 'channel.web-1': 'shop' });
    expect((await retrieveCharge(api, charge.id)).metadata).toEqual(charge.metadata);
    expect((await eventsOf(charge.id))[0]?.data.object.metadata).toEqual(charge.metadata);
  });

  it('takes a key made only of digits in every encoding, as a key', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    const keys = { form: '0', multipart: '12', json: '345' } as const;
    for (const [encoding, key] of Object.entries(keys) as Array<[keyof typeof keys, string]>) {
      const updated = await api.post(`/v2/charges/${charge.id}`, { metadata: { [key]: encoding } }, { encoding });
      expect(updated.status, encoding).toBe(200);
    }
    expect((await retrieveCharge(api, charge.id)).metadata).toEqual({ 0: 'form', 12: 'multipart', 345: 'json' });
  });

  it('on a refund, answered on the refund and in its charge.refunded event', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    const refund = expectResource(await api.post(`/v2/charges/refund/${charge.id}`, { metadata: { reason: 'customer' } }, { encoding: 'json' }), RefundSchema);
    expect(refund.metadata).toEqual({ reason: 'customer' });
    expect(expectResource(await api.get(`/v2/charges/refund/${refund.id}`), RefundSchema).metadata).toEqual({ reason: 'customer' });
    const refunded = (await eventsOf(charge.id)).find((event) => event.name === 'charge.refunded');
    expect(refunded?.data.refund?.metadata).toEqual({ reason: 'customer' });
  });

  it('POST /v2/charges/:id merges, an empty value deletes, and records charge.updated', async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { metadata: { a: '1', b: '2' } });
    const updated = expectResource(await api.post(`/v2/charges/${charge.id}`, { metadata: { b: '', c: '3' } }), ChargeSchema);
    expect(updated.metadata).toEqual({ a: '1', c: '3' });
    expect({ ...updated, metadata: charge.metadata }).toEqual(charge);
    expect(await retrieveCharge(api, charge.id)).toEqual(updated);
    const events = await eventsOf(charge.id);
    expect(events.map((event) => event.name)).toEqual(['charge.created', 'charge.updated']);
    expect(events[1]?.data.object).toEqual(updated);
    // The same update again changes nothing: no write, no event.
    expectResource(await api.post(`/v2/charges/${charge.id}`, { metadata: { c: '3' } }), ChargeSchema);
    expect(await eventsOf(charge.id)).toHaveLength(2);
  });

  it('takes no other parameter on update, and refuses bad keys, values and counts on the name at fault', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    expectError(await api.post(`/v2/charges/${charge.id}`, { metadata: { a: '1' }, description: 'x' }), 400, 'PARAMETER_UNKNOWN', { parameter: 'description' });
    expectError(await api.post(`/v2/charges/${charge.id}`), 400, 'PARAMETER_MISSING', { parameter: 'metadata' });
    expectError(await api.post(`/v2/charges/${charge.id}`, { metadata: { 'bad key': '1' } }), 400, 'PARAMETER_INVALID', { parameter: 'metadata.bad key' });
    // A key with a `/` or a `~` is one name, not a path: refused as itself, in a form and in JSON.
    for (const key of ['order/id', 'a/b/c', 'x~1y']) {
      for (const encoding of ['form', 'json'] as const) {
        expectError(await api.post(`/v2/charges/${charge.id}`, { metadata: { [key]: '1' } }, { encoding }), 400, 'PARAMETER_INVALID', {
          parameter: `metadata.${key}`,
        });
      }
    }
    expectError(await api.post(`/v2/charges/${charge.id}`, { metadata: { ['k'.repeat(41)]: '1' } }), 400, 'PARAMETER_INVALID', {
      parameter: `metadata.${'k'.repeat(41)}`,
    });
    expectError(await api.post(`/v2/charges/${charge.id}`, { metadata: { a: 'v'.repeat(501) } }), 400, 'PARAMETER_INVALID', { parameter: 'metadata.a' });
    expectError(await api.post(`/v2/charges/${charge.id}`, { metadata: { a: 5 } }, { encoding: 'json' }), 400, 'PARAMETER_INVALID', {
      parameter: 'metadata.a',
    });
    const many = (count: number, prefix: string) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, 'v']));
    expectError(await api.post('/v2/charges/refund/x', { metadata: many(21, 'k') }), 400, 'PARAMETER_INVALID', { parameter: 'metadata' });
    // 20 at most after the merge, too.
    expectResource(await api.post(`/v2/charges/${charge.id}`, { metadata: many(20, 'a') }), ChargeSchema);
    expectError(await api.post(`/v2/charges/${charge.id}`, { metadata: { extra: 'v' } }), 400, 'PARAMETER_INVALID', { parameter: 'metadata' });
    expect(Object.keys((await retrieveCharge(api, charge.id)).metadata)).toHaveLength(20);
    expectError(await api.post('/v2/charges/C0000000000000000000', { metadata: { a: '1' } }), 404, 'RESOURCE_MISSING');
  });
});
