import { describe, expect, it, vi } from 'vitest';
import { CSRF_TOKEN, charge, error, fakeApi, session } from '../test-support.tsx';
import { DashboardApiError } from './api-error.ts';
import { createClient } from './client.ts';

describe('the dashboard API client', () => {
  it('sends the CSRF token of its session on mutations only', async () => {
    const api = fakeApi()
      .on('GET /session', session())
      .on('GET /charges/C0000000000000001', charge({ id: 'C0000000000000001' }))
      .on('POST /charges/C0000000000000001/capture', charge({ id: 'C0000000000000001' }));
    const client = createClient({ fetch: api.fetch });
    await client.session();
    await client.getCharge('live', 'C0000000000000001');
    await client.captureCharge('live', 'C0000000000000001');
    expect(api.last('GET /charges/C0000000000000001')?.headers.get('X-CSRF-Token')).toBeNull();
    expect(api.last('GET /charges/C0000000000000001')?.query.get('mode')).toBe('live');
    expect(api.last('POST /charges/C0000000000000001/capture')?.headers.get('X-CSRF-Token')).toBe(CSRF_TOKEN);
  });

  it('turns the API error shape into a typed error with code, message, status and parameter', async () => {
    const api = fakeApi().on('POST /charges/C0000000000000001/refund', () => error('AMOUNT_EXCEEDS_REMAINING', 'Too much.', 'amount'));
    const failure = await createClient({ fetch: api.fetch })
      .refundCharge('test', 'C0000000000000001', { amount: 5 })
      .catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(DashboardApiError);
    expect(failure).toMatchObject({ code: 'AMOUNT_EXCEEDS_REMAINING', message: 'Too much.', status: 402, parameter: 'amount' });
  });

  it('refuses an answer its schema does not describe', async () => {
    const api = fakeApi().on('GET /charges/C0000000000000001', { ...charge({ id: 'C0000000000000001' }), amount: '10.00' });
    await expect(createClient({ fetch: api.fetch }).getCharge('test', 'C0000000000000001')).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE', status: 200 });
  });

  it('says when the server cannot be reached', async () => {
    const client = createClient({ fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(client.getAccount()).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
  });

  it('reports a 401 as an ended session only once a session was known', async () => {
    const onSessionExpired = vi.fn();
    const api = fakeApi()
      .on('GET /session', () => error('SESSION_EXPIRED', 'No session.'))
      .on('POST /login', session())
      .on('GET /account', () => error('SESSION_EXPIRED', 'The session has expired.'));
    const client = createClient({ fetch: api.fetch, onSessionExpired });
    await expect(client.session()).rejects.toMatchObject({ code: 'SESSION_EXPIRED', status: 401 });
    expect(onSessionExpired).not.toHaveBeenCalled();
    await client.login({ email: 'demo@payframe.test', password: 'correct horse battery' });
    await expect(client.getAccount()).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
    expect(onSessionExpired).toHaveBeenCalledOnce();
  });
});
