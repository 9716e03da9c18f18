import { ChargeSchema, TokenSchema } from '@payframe/contract';
import { expectError } from '@payframe/contract/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authenticateCharge,
  type Client,
  cancelCharge,
  captureCharge,
  chargeParams,
  client,
  createCharge,
  createToken,
  expectResource,
  readClock,
  refundCharge,
  retrieveCharge,
  TEST_PANS,
} from './client.ts';
import { eventually, queryStore } from './database.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';
import { type Receiver, startReceiver } from './webhook-receiver.ts';

/**
 * Per-object time travel (docs/api.md "Test helpers"): one charge or one token reaches its
 * deadline now, with no clock moved, so that tests sharing an account do not disturb each other.
 */

let server: InProcessTestServer;
let api: Client;
let receiver: Receiver;
let endpointSecret: string;

beforeAll(async () => {
  server = await startInProcess();
  api = client(server, (await createKeys(server.dataDir, 'expire-helpers')).secretKey);
  receiver = await startReceiver();
  const endpoint = await api.post('/v2/webhook_endpoints', { url: receiver.url, events: ['charge.expired'] });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(200);
  endpointSecret = endpoint.body.secret;
});
afterAll(async () => {
  await receiver?.close();
  await server?.stop();
});

const expireCharge = (id: string) => api.post(`/v2/test_helpers/charges/${id}/expire`);
const expireToken = (id: string) => api.post(`/v2/test_helpers/tokens/${id}/expire`);

describe('POST /v2/test_helpers/charges/:id/expire', () => {
  it('expires a pending charge as its deadline would: REFUNDED, EXPIRED, its event and a signed webhook', async () => {
    const pending = await createCharge(api, TEST_PANS.visa3ds);
    const expired = expectResource(await expireCharge(pending.id), ChargeSchema);
    expect(expired).toMatchObject({
      id: pending.id,
      status: 'REFUNDED',
      reason: 'EXPIRED',
      amount_refunded: pending.amount,
      created: pending.created,
      threedSecure: { status: 'NOT_AVAILABLE' },
    });
    expect(await retrieveCharge(api, pending.id)).toEqual(expired);

    const events = await api.get(`/v2/events?charge=${pending.id}`);
    expect(events.body.data.map((event: { name: string }) => event.name)).toEqual(['charge.expired', 'charge.created']);
    expect(events.body.data[0].data.object).toEqual(expired);

    const delivered = await eventually(
      async () => receiver.received.find((request) => request.id === events.body.data[0].id),
      10_000,
      'charge.expired delivered',
    );
    const headers = { 'webhook-id': delivered.id, 'webhook-timestamp': delivered.timestamp, 'webhook-signature': delivered.signature };
    expect(new Webhook(endpointSecret).verify(delivered.body, headers)).toMatchObject({ name: 'charge.expired', data: { object: { id: pending.id } } });

    // Ended like any expired charge; no refund object was made.
    expectError(await api.post(`/v2/charges/capture/${pending.id}`), 402, 'CHARGE_EXPIRED');
    expect((await api.get(`/v2/refunds?charge=${pending.id}`)).body.data).toEqual([]);
  });

  it('moves no clock: the account clock stays at offset 0 and other charges stay pending', async () => {
    const bystander = await createCharge(api, TEST_PANS.visa);
    const target = await createCharge(api, TEST_PANS.visa);
    expectResource(await expireCharge(target.id), ChargeSchema);
    expect((await readClock(api)).offset).toBe(0);
    expect((await retrieveCharge(api, bystander.id)).status).toBe('PENDING');
    expect((await captureCharge(api, bystander.id)).status).toBe('CHARGE_SUCCESS');
  });

  it('answers 402 for charges that are not pending', async () => {
    const captured = await createCharge(api, TEST_PANS.visa);
    await captureCharge(api, captured.id);
    expectError(await expireCharge(captured.id), 402, 'CHARGE_ALREADY_CAPTURED');

    const canceled = await createCharge(api, TEST_PANS.visa);
    await cancelCharge(api, canceled.id);
    expectError(await expireCharge(canceled.id), 402, 'CHARGE_CANCELED');

    const expired = await createCharge(api, TEST_PANS.visa);
    expectResource(await expireCharge(expired.id), ChargeSchema);
    expectError(await expireCharge(expired.id), 402, 'CHARGE_EXPIRED');

    const released = await createCharge(api, TEST_PANS.visa);
    await refundCharge(api, released.id);
    expectError(await expireCharge(released.id), 402, 'CHARGE_ALREADY_REFUNDED');

    expectError(await expireCharge('C0000000000000000000'), 404, 'RESOURCE_MISSING');
  });

  it('expires an authenticated charge too, and the 3-D Secure link then shows an ended page', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    await authenticateCharge(api, charge.id, 'success');
    expect(expectResource(await expireCharge(charge.id), ChargeSchema)).toMatchObject({ status: 'REFUNDED', reason: 'EXPIRED' });
    expectError(await api.post(`/v2/test_helpers/charges/${charge.id}/authenticate`, { result: 'success' }), 402, 'AUTHENTICATION_NOT_PENDING');
  });

  it('replays under the same Idempotency-Key instead of answering CHARGE_EXPIRED', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    const headers = { 'idempotency-key': `expire-${charge.id}` };
    const first = await api.post(`/v2/test_helpers/charges/${charge.id}/expire`, undefined, { headers });
    const again = await api.post(`/v2/test_helpers/charges/${charge.id}/expire`, undefined, { headers });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });
});

describe('POST /v2/test_helpers/tokens/:id/expire', () => {
  it('ends the token now: TOKEN_EXPIRED on charge, its sealed card erased at once, the token still retrievable', async () => {
    const token = await createToken(api, TEST_PANS.visa);
    const expired = expectResource(await expireToken(token.id), TokenSchema);
    expect(expired).toEqual(token);
    const [row] = await queryStore(server.dataDir, 'select card_secret, used_at from tokens where id = ?', [token.id]);
    expect(row).toEqual({ card_secret: null, used_at: null });

    expectError(await api.post('/v2/charges', chargeParams(token.id)), 402, 'TOKEN_EXPIRED');
    expect(expectResource(await api.get(`/v2/tokens/${token.id}`), TokenSchema)).toEqual(token);
    expect((await readClock(api)).offset).toBe(0);
  });

  it('leaves other tokens chargeable', async () => {
    const bystander = await createToken(api, TEST_PANS.visa);
    const target = await createToken(api, TEST_PANS.visa);
    expectResource(await expireToken(target.id), TokenSchema);
    expect((await api.post('/v2/charges', chargeParams(bystander.id))).status).toBe(200);
  });

  it('answers 402 for a used or already expired token, 404 for an unknown one', async () => {
    const used = await createToken(api, TEST_PANS.visa);
    expect((await api.post('/v2/charges', chargeParams(used.id))).status).toBe(200);
    expectError(await expireToken(used.id), 402, 'TOKEN_ALREADY_USED');

    const token = await createToken(api, TEST_PANS.visa);
    expectResource(await expireToken(token.id), TokenSchema);
    expectError(await expireToken(token.id), 402, 'TOKEN_EXPIRED');

    expectError(await expireToken('00000000-0000-4000-8000-000000000000'), 404, 'RESOURCE_MISSING');
  });
});

describe('two tests in parallel on one account', () => {
  it('one expires its own charge while the other pays and captures', async () => {
    const expiring = async () => {
      const charge = await createCharge(api, TEST_PANS.visa3ds);
      return expectResource(await expireCharge(charge.id), ChargeSchema);
    };
    const paying = async () => {
      const charges = [];
      for (let index = 0; index < 5; index++) {
        const charge = await createCharge(api, TEST_PANS.visa3ds);
        await authenticateCharge(api, charge.id, 'success');
        charges.push(await captureCharge(api, charge.id));
      }
      return charges;
    };
    const [expired, captured] = await Promise.all([Promise.all([expiring(), expiring(), expiring()]), paying()]);
    expect(expired.map((charge) => charge.reason)).toEqual(['EXPIRED', 'EXPIRED', 'EXPIRED']);
    expect(captured.map((charge) => charge.status)).toEqual(Array(5).fill('CHARGE_SUCCESS'));
  });
});
