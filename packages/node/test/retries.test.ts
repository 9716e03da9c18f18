import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { APIError, ConnectionError, IdempotencyError, InvalidRequestError, Payframe } from '../src/index.ts';
import { closeFakeApi, fakeApi } from './fake-api.ts';

const CLOCK = { type: 'test_clock', now: 1795342555, offset: 0 };

afterEach(closeFakeApi);

function errorBody(type: string, code: string, message = 'try again') {
  return { type, message, error: { code, message } };
}

describe('retries', () => {
  it('retries a POST that failed twice (5xx, then a dropped connection) with the same Idempotency-Key', async () => {
    const api = await fakeApi([{ status: 503, body: errorBody('api_error', 'SERVICE_UNAVAILABLE') }, 'hang up', { status: 200, body: CLOCK }]);
    const payframe = new Payframe('sk_test_x', { apiBase: api.url });
    expect(await payframe.testHelpers.clock.advance({ advance_seconds: 60 })).toEqual(CLOCK);
    expect(api.seen).toHaveLength(3);
    const keys = new Set(api.seen.map((request) => request.idempotencyKey));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(api.seen.every((request) => request.url === '/v2/test_helpers/clock' && request.body === '{"advance_seconds":60}')).toBe(true);
  });

  it('keeps a given Idempotency-Key, and each call without one gets its own', async () => {
    const api = await fakeApi([{ status: 200, body: CLOCK }]);
    const payframe = new Payframe('sk_test_x', { apiBase: api.url });
    await payframe.testHelpers.clock.advance({ advance_seconds: 1 }, { idempotencyKey: 'order-42' });
    await payframe.testHelpers.clock.advance({ advance_seconds: 1 });
    await payframe.testHelpers.clock.advance({ advance_seconds: 1 });
    const [given, first, second] = api.seen.map((request) => request.idempotencyKey);
    expect(given).toBe('order-42');
    expect(first).not.toBe(second);
  });

  it('waits Retry-After on 429 and retries 409', async () => {
    const api = await fakeApi([
      { status: 429, body: errorBody('rate_limit_error', 'RATE_LIMITED'), headers: { 'retry-after': '1' } },
      { status: 409, body: errorBody('idempotency_error', 'IDEMPOTENCY_CONFLICT') },
      { status: 200, body: CLOCK },
    ]);
    const payframe = new Payframe('sk_test_x', { apiBase: api.url });
    const started = performance.now();
    expect(await payframe.testHelpers.clock.retrieve()).toEqual(CLOCK);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    expect(api.seen).toHaveLength(3);
  });

  it('gives up after two retries with the last error', async () => {
    const api = await fakeApi([{ status: 409, body: errorBody('idempotency_error', 'IDEMPOTENCY_CONFLICT') }]);
    const payframe = new Payframe('sk_test_x', { apiBase: api.url });
    const error = await payframe.testHelpers.clock.retrieve().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IdempotencyError);
    expect(error).toMatchObject({ status: 409, code: 'IDEMPOTENCY_CONFLICT' });
    expect(api.seen).toHaveLength(3);
  });

  it('does not retry a 4xx other than 409 and 429', async () => {
    const api = await fakeApi([
      { status: 400, body: errorBody('invalid_request_error', 'PARAMETER_INVALID') },
      { status: 200, body: CLOCK },
    ]);
    const payframe = new Payframe('sk_test_x', { apiBase: api.url });
    await expect(payframe.testHelpers.clock.retrieve()).rejects.toBeInstanceOf(InvalidRequestError);
    expect(api.seen).toHaveLength(1);
  });

  it('honours maxNetworkRetries, and an answer that is not JSON is an APIError', async () => {
    const api = await fakeApi([{ status: 502 }]);
    const payframe = new Payframe('sk_test_x', { apiBase: api.url, maxNetworkRetries: 0 });
    const error = await payframe.testHelpers.clock.retrieve().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 502, code: 'UNEXPECTED_RESPONSE' });
    expect(api.seen).toHaveLength(1);
  });

  it('throws ConnectionError when the API cannot be reached, and one when it does not answer in time', async () => {
    const api = await fakeApi(['hang up']);
    const dropped = new Payframe('sk_test_x', { apiBase: api.url, maxNetworkRetries: 1 });
    await expect(dropped.charges.retrieve('C1')).rejects.toBeInstanceOf(ConnectionError);
    expect(api.seen).toHaveLength(2);

    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const slow = new Payframe('sk_test_x', { apiBase: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeout: 200, maxNetworkRetries: 0 });
      await expect(slow.charges.retrieve('C1')).rejects.toBeInstanceOf(ConnectionError);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('sends list filters as bracketed query parameters', async () => {
    const api = await fakeApi([{ status: 200, body: { type: 'list', url: '/v2/charges', has_more: false, data: [] } }]);
    const payframe = new Payframe('sk_test_x', { apiBase: `${api.url}/` });
    await payframe.charges.list({ status: 'PENDING', created: { gte: 10, lt: 20 }, limit: 5 });
    expect(api.seen[0]).toMatchObject({
      method: 'GET',
      url: '/v2/charges?status=PENDING&created%5Bgte%5D=10&created%5Blt%5D=20&limit=5',
      idempotencyKey: undefined,
    });
  });
});
