import { TEST_SHOPPER } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeParams, client, type Encoding, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, type InProcessTestServer, type Keys, startInProcess } from './harness.ts';
import { validatedClient } from './openapi/validated-client.ts';
import { type Receiver, startReceiver } from './webhook-receiver.ts';

// The OpenAPI document (docs/api.md): a tour of the whole API in the suite's own styles (form, multipart and JSON bodies;
// successes and errors), every request and answer checked against the served /v2/openapi.json by
// Stoplight's validator library. No violation either way: the document tells the truth.

let server: InProcessTestServer;
let keys: Keys;
let receiver: Receiver;
let api: Awaited<ReturnType<typeof validatedClient>>;

beforeAll(async () => {
  server = await startInProcess();
  [keys, receiver] = await Promise.all([createKeys(server.dataDir, 'openapi-tour'), startReceiver()]);
  const document = (await client(server).get('/v2/openapi.json')).body;
  api = await validatedClient(server, document);
});
afterAll(async () => {
  await receiver?.close();
  await server?.stop();
});

const ENCODINGS: Encoding[] = ['form', 'multipart', 'json'];

function secret(method: string, path: string, params?: Record<string, unknown>, encoding?: Encoding, headers?: Record<string, string>) {
  return api.request(method, path, { apiKey: keys.secretKey, ...(params ? { params, encoding: encoding ?? 'form' } : {}), ...(headers ? { headers } : {}) });
}

/** A request the server refuses as malformed: the document must refuse it too, and describe the answer. */
function malformed(method: string, path: string, params?: Record<string, unknown>, encoding: Encoding = 'form') {
  return api.request(method, path, { apiKey: keys.secretKey, ...(params ? { params, encoding } : {}), breaksDocument: true });
}

describe('the API as the document describes it', () => {
  it('tours every operation, in every encoding, with successes and errors, without a violation', async () => {
    const since = Math.floor(Date.now() / 1000) - 60;
    const charges: string[] = [];
    for (const encoding of ENCODINGS) {
      const token = await secret('POST', '/v2/tokens', tokenParams(TEST_PANS.visa, { address: { city: 'Paris', country: 'fr' } }), encoding);
      expect(token.status, JSON.stringify(token.body)).toBe(200);
      expect((await secret('GET', `/v2/tokens/${token.body.id}`)).status).toBe(200);
      const params = chargeParams(token.body.id, {
        amount: encoding === 'json' ? 1000 : '1000',
        metadata: { order_id: `o-${encoding}` },
        txn_reference: `tour-${encoding}`,
      });
      const charge = await secret('POST', '/v2/charges', params, encoding, { 'idempotency-key': `tour-charge-${encoding}` });
      expect(charge.status, JSON.stringify(charge.body)).toBe(200);
      charges.push(charge.body.id);
      // A replay answers with Idempotent-Replayed.
      expect((await secret('POST', '/v2/charges', params, encoding, { 'idempotency-key': `tour-charge-${encoding}` })).headers.get('idempotent-replayed')).toBe(
        'true',
      );
      // So does a refusal's: the token is spent.
      const refused = { 'idempotency-key': `tour-refused-${encoding}` };
      expect((await secret('POST', '/v2/charges', params, encoding, refused)).status).toBe(402);
      const replayedRefusal = await secret('POST', '/v2/charges', params, encoding, refused);
      expect([replayedRefusal.status, replayedRefusal.headers.get('idempotent-replayed')]).toEqual([402, 'true']);
      expect((await secret('POST', `/v2/charges/${charge.body.id}`, { metadata: { channel: 'web', order_id: '' } }, encoding)).status).toBe(200);
      expect((await secret('POST', `/v2/charges/capture/${charge.body.id}`, { amount: encoding === 'json' ? 600 : '600' }, encoding)).status).toBe(200);
      expect((await secret('POST', `/v2/charges/refund/${charge.body.id}`, { amount: '100', metadata: { why: 'damaged' } }, encoding)).status).toBe(200);
    }
    const [first, second] = charges as [string, string, string];
    // Bodies that may be left out: a refund, a capture, a cancel without one.
    const refund = await secret('POST', `/v2/charges/refund/${first}`);
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect((await secret('GET', `/v2/charges/refund/${refund.body.id}`)).status).toBe(200);
    const token = await secret('POST', '/v2/tokens', tokenParams(TEST_PANS.visa));
    // An IPv4 client as a dual-stack socket reports it: the server and the document both take it.
    const mapped = await secret('POST', '/v2/tokens', tokenParams(TEST_PANS.visa, { shopper: { ...TEST_SHOPPER, ip: '::ffff:203.0.113.7' } }), 'json');
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);
    // A return_url the URL check takes and escapes (a space, an ä): the document takes it too,
    // and refuses with the server one that carries credentials.
    const spaced = await secret('POST', '/v2/charges', chargeParams(mapped.body.id, { return_url: 'https://shop.example/ret urn/ä?x=1' }));
    expect(spaced.status, JSON.stringify(spaced.body)).toBe(200);
    expect((await malformed('POST', '/v2/charges', chargeParams(token.body.id, { return_url: 'https://user@shop.example/' }))).status).toBe(400);
    const pending = (await secret('POST', '/v2/charges', chargeParams(token.body.id))).body.id;
    expect((await secret('POST', `/v2/charges/cancel/${pending}`)).status).toBe(200);
    const token3ds = await secret('POST', '/v2/tokens', tokenParams(TEST_PANS.visa3ds), 'json');
    const threeds = (await secret('POST', '/v2/charges', chargeParams(token3ds.body.id), 'json')).body.id;
    expect((await secret('POST', `/v2/charges/capture/${threeds}`)).status).toBe(402);
    expect((await secret('POST', `/v2/test_helpers/charges/${threeds}/authenticate`, { result: 'success' }, 'multipart')).status).toBe(200);
    expect((await secret('POST', `/v2/charges/capture/${threeds}`)).status).toBe(200);

    // Lists, with deepObject filters.
    expect((await secret('GET', `/v2/charges?limit=2&created[gte]=${since}&status=PARTIALLY_REFUNDED`)).body.data).toHaveLength(2);
    expect((await secret('GET', `/v2/charges?email=ADA@example.com&last4=4242&created[lt]=${since + 3600}&txn_reference=tour-json`)).status).toBe(200);
    expect((await secret('GET', `/v2/refunds?charge=${first}&limit=100`)).body.data.length).toBeGreaterThan(0);
    const events = await secret('GET', `/v2/events?charge=${second}&name=charge.updated&created[gte]=${since}`);
    expect(events.body.data).toHaveLength(1);
    const eventId = events.body.data[0].id;
    expect((await secret('GET', `/v2/events/${eventId}`)).status).toBe(200);

    // Webhooks: an array in each encoding, a resend without a body, deliveries.
    const endpoints: string[] = [];
    for (const encoding of ENCODINGS) {
      const created = await secret(
        'POST',
        '/v2/webhook_endpoints',
        { url: receiver.url, events: ['charge.updated', 'charge.captured'], description: encoding },
        encoding,
      );
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      endpoints.push(created.body.id);
    }
    expect((await secret('GET', '/v2/webhook_endpoints?limit=10')).status).toBe(200);
    expect((await secret('GET', `/v2/webhook_endpoints/${endpoints[0]}`)).status).toBe(200);
    // An update in each encoding: a boolean as a form word and as JSON.
    expect((await secret('POST', `/v2/webhook_endpoints/${endpoints[0]}`, { disabled: 'true', description: 'paused' })).status).toBe(200);
    expect((await secret('POST', `/v2/webhook_endpoints/${endpoints[0]}`, { disabled: 'false' }, 'multipart')).status).toBe(200);
    expect((await secret('POST', `/v2/webhook_endpoints/${endpoints[0]}`, { disabled: false, events: ['charge.updated'] }, 'json')).status).toBe(200);
    expect((await secret('POST', `/v2/events/resend/${eventId}`)).status).toBe(200);
    expect((await secret('POST', `/v2/events/resend/${eventId}`, { endpoint: endpoints[1] }, 'json')).status).toBe(200);
    expect((await secret('GET', `/v2/events/${eventId}/deliveries`)).status).toBe(200);
    expect((await secret('DELETE', `/v2/webhook_endpoints/${endpoints[2]}`)).status).toBe(200);

    // One charge and one token expired now, without a body; a second expiry is a 402.
    const expiring = (await secret('POST', '/v2/charges', chargeParams((await secret('POST', '/v2/tokens', tokenParams(TEST_PANS.visa))).body.id))).body.id;
    expect((await secret('POST', `/v2/test_helpers/charges/${expiring}/expire`)).status).toBe(200);
    expect((await secret('POST', `/v2/test_helpers/charges/${expiring}/expire`)).status).toBe(402);
    const unused = await secret('POST', '/v2/tokens', tokenParams(TEST_PANS.visa), 'json');
    expect((await secret('POST', `/v2/test_helpers/tokens/${unused.body.id}/expire`)).status).toBe(200);

    // The test clock.
    expect((await secret('GET', '/v2/test_helpers/clock')).status).toBe(200);
    expect((await secret('POST', '/v2/test_helpers/clock', { advance_seconds: '60' }, 'multipart')).status).toBe(200);

    // Errors the document declares, each in the error shape.
    expect((await api.request('GET', `/v2/charges/${first}`)).status).toBe(401);
    expect((await api.request('GET', `/v2/charges/${first}`, { apiKey: keys.publishableKey })).status).toBe(403);
    expect((await secret('GET', '/v2/charges/C00000000000000000000')).status).toBe(404);
    expect((await secret('POST', '/v2/charges/refund/C00000000000000000000')).status).toBe(404);
    expect((await secret('POST', `/v2/charges/refund/${second}`, { amount: '100000' })).status).toBe(402);
    const declined = await secret('POST', '/v2/tokens', tokenParams(TEST_PANS.declined));
    expect((await secret('POST', '/v2/charges', chargeParams(declined.body.id))).status).toBe(402);
    for (const encoding of ENCODINGS) {
      expect((await malformed('POST', '/v2/charges', { ...chargeParams('x'), amount: undefined }, encoding)).status).toBe(400);
      // Prism reads a form's declared fields only, so an unknown one is checked in JSON (additionalProperties: false).
      if (encoding === 'json') expect((await malformed('POST', `/v2/charges/refund/${second}`, { amout: '5' }, encoding)).status).toBe(400);
      expect((await malformed('POST', `/v2/charges/capture/${pending}`, { amount: '0' }, encoding)).status).toBe(400);
      expect((await malformed('POST', '/v2/tokens', tokenParams(TEST_PANS.visa, { card: { numbr: TEST_PANS.visa } }), encoding)).status).toBe(400);
    }
    expect((await malformed('GET', '/v2/charges?limit=101')).status).toBe(400);
    expect((await malformed('GET', '/v2/charges?status=LOST')).status).toBe(400);
    expect((await malformed('GET', '/v2/charges?created[gte]=yesterday')).status).toBe(400);
    expect((await malformed('POST', '/v2/test_helpers/clock', { advance_seconds: '0' })).status).toBe(400);
    expect((await malformed('POST', '/v2/webhook_endpoints', { url: 'ftp://example.com/hook' }, 'json')).status).toBe(400);
    expect((await malformed('POST', `/v2/webhook_endpoints/${endpoints[0]}`, { disabled: 'maybe' }, 'json')).status).toBe(400);
    expect((await secret('POST', '/v2/charges', chargeParams('no-such-token'), 'json')).status).toBe(400);
    expect((await secret('GET', '/v2/events/stream', undefined, undefined, { 'last-event-id': 'evt_0' })).status).toBe(400);
    expect((await secret('GET', '/v2/test_helpers/clock', undefined, undefined, {})).status).toBe(200);

    expect(api.violations).toEqual([]);
    expect(api.checked()).toBeGreaterThan(60);
    // About a hundred requests in sequence: on a busy shared host that outlasts the default 30 s.
  }, 120_000);

  it('finds a violation where a request breaks the document (the check can fail)', async () => {
    const before = api.violations.length;
    const answer = await secret('POST', '/v2/charges/refund/C00000000000000000000', { amout: '5' }, 'json');
    expect(answer.status).toBe(400);
    const found = api.violations.splice(before);
    expect(found.some((violation) => violation.side === 'request')).toBe(true);
  });
});
