import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayframeApiError } from './api.ts';
import { expireCharge, expireToken } from './expire.ts';
import { waitForEvent } from './wait-for-event.ts';

/** A stand-in for the API: records each request, answers as `answer` says. */
let answer: (request: IncomingMessage) => { status: number; body: unknown } = () => ({ status: 200, body: {} });
const requests: Array<{ method: string; url: string; key: string }> = [];
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  requests.push({ method: request.method ?? '', url: request.url ?? '', key: String(request.headers['x-api-key'] ?? '') });
  const { status, body } = answer(request);
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
let apiBase = '';

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const options = () => ({ apiKey: 'sk_test_abc', apiBase });

describe('expireCharge / expireToken', () => {
  it('POST the per-object test helpers with the key, and resolve with the answer', async () => {
    answer = () => ({ status: 200, body: { type: 'charge', id: 'C1', status: 'REFUNDED', reason: 'EXPIRED' } });
    expect(await expireCharge('C1', options())).toMatchObject({ id: 'C1', reason: 'EXPIRED' });
    expect(requests.at(-1)).toEqual({ method: 'POST', url: '/v2/test_helpers/charges/C1/expire', key: 'sk_test_abc' });
    answer = () => ({ status: 200, body: { type: 'token', id: 't/1' } });
    await expireToken('t/1', options());
    expect(requests.at(-1)?.url).toBe('/v2/test_helpers/tokens/t%2F1/expire');
  });

  it("throw with the API's code and message, the code and status as fields too", async () => {
    answer = () => ({ status: 402, body: { error: { code: 'CHARGE_ALREADY_CAPTURED', message: 'The charge has already been captured.' } } });
    const thrown = await expireCharge('C2', options()).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(PayframeApiError);
    expect(thrown).toMatchObject({
      status: 402,
      code: 'CHARGE_ALREADY_CAPTURED',
      message: 'expireCharge(C2): POST /v2/test_helpers/charges/C2/expire answered 402 CHARGE_ALREADY_CAPTURED: The charge has already been captured.',
    });
  });

  it('say whether the server refused the connection or never answered', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    await expect(expireCharge('C6', { apiKey: 'sk_test_abc', apiBase: `http://127.0.0.1:${port}` })).rejects.toThrow(/failed: .*ECONNREFUSED/);
    const silent = createServer(() => {});
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const base = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      await expect(expireCharge('C7', { apiKey: 'sk_test_abc', apiBase: base, timeoutMs: 100 })).rejects.toThrow('got no answer within 100 ms');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('refuse anything but a test secret key before any request', async () => {
    const before = requests.length;
    await expect(expireCharge('C3', { apiKey: 'pk_test_x', apiBase })).rejects.toThrow(/sk_test_/);
    expect(requests.length).toBe(before);
  });
});

describe('waitForEvent with { apiKey, apiBase }', () => {
  it("polls the charge's events until one exists", async () => {
    let calls = 0;
    answer = () => ({ status: 200, body: { data: ++calls < 3 ? [] : [{ id: 'evt_1', name: 'charge.expired' }] } });
    const event = await waitForEvent({ name: 'charge.expired', charge: 'C4', intervalMs: 10, ...options() });
    expect(event).toMatchObject({ id: 'evt_1' });
    expect(requests.at(-1)?.url).toBe('/v2/events?name=charge.expired&charge=C4&limit=1');
  });

  it('gives up after timeoutMs, naming the event and the charge', async () => {
    answer = () => ({ status: 200, body: { data: [] } });
    await expect(waitForEvent({ name: 'charge.captured', charge: 'C5', timeoutMs: 50, intervalMs: 10, ...options() })).rejects.toThrow(
      'no charge.captured event for charge C5 within 50 ms',
    );
  });
});

describe('waitForEvent with a client', () => {
  it('gives up at timeoutMs with a client whose request never answers', async () => {
    // A client's own timeouts and retries may outlast the wait: its request is raced against the deadline.
    const silent = { events: { list: () => new Promise<never>(() => undefined) } };
    const started = Date.now();
    await expect(waitForEvent(silent, { name: 'charge.captured', charge: 'C6', timeoutMs: 100 })).rejects.toThrow(
      'no charge.captured event for charge C6 within 100 ms',
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    let calls = 0;
    const slow = { events: { list: () => new Promise<{ data: never[] }>((resolve) => setTimeout(() => resolve({ data: [] }), ++calls === 1 ? 10 : 1_000)) } };
    await expect(waitForEvent(slow, { name: 'charge.expired', charge: 'C8', timeoutMs: 100, intervalMs: 10 })).rejects.toThrow('within 100 ms');
    expect(calls).toBe(2);
  });
});
