import { type RequestLogEntry, RequestLogEntrySchema } from '@payframe/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiRequest, fakeApi, list, openDashboard, session } from '../test-support.tsx';

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

function entry(n: number, status = 200, path = '/v2/charges', idempotencyKey: string | null = null): RequestLogEntry {
  return RequestLogEntrySchema.parse({
    type: 'request_log_entry',
    id: `req_${String(n).padStart(24, '0')}`,
    created: 1_795_342_555_000 + n * 1000,
    method: n % 2 === 0 ? 'GET' : 'POST',
    path,
    status,
    duration_ms: 12,
    key_hint: 'sk_test_…AbCd',
    idempotency_key: idempotencyKey,
  });
}

const ENTRIES = [entry(3, 402, '/v2/charges', 'order-17'), entry(2, 404, '/v2/charges/C1'), entry(1, 200, '/v2/tokens')];

function logsApi() {
  return fakeApi()
    .on('GET /session', session())
    .on('GET /request_log', ({ query }: ApiRequest) => {
      const status = query.get('status');
      const path = query.get('path');
      const data = ENTRIES.filter((item) => (status === null || String(item.status)[0] === status[0]) && (path === null || item.path.startsWith(path)));
      return { body: list('/dashboard/api/request_log', data) };
    })
    .on(`GET /request_log/${ENTRIES[2]?.id}`, {
      ...ENTRIES[2],
      request: { query: {}, body: { card: { number: '[redacted]', cvc: '[redacted]', exp_month: '12' } } },
      response: { type: 'token', id: 'tok-1', card: { last4Digits: '4242' } },
    });
}

const rows = () => screen.getAllByTestId('log-row');

describe('the request log', () => {
  it('lists requests with their id and status, and filters by status class and path', async () => {
    const api = logsApi();
    openDashboard(api, '/dashboard/logs');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows().map((row) => [row.dataset.requestId, row.dataset.status])).toEqual(ENTRIES.map((item) => [item.id, String(item.status)]));
    expect(rows()[0]?.textContent).toContain('sk_test_…AbCd');
    // Each row says its Idempotency-Key, where the request sent one.
    expect(rows()[0]?.textContent).toContain('order-17');
    expect(rows()[1]?.querySelector('[data-label="Idempotency-Key"]')?.textContent).toBe('—');
    expect(api.last('GET /request_log')?.query.get('limit')).toBe('25');

    fireEvent.change(screen.getByTestId('logs-status-filter'), { target: { value: '4xx' } });
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(api.last('GET /request_log')?.query.get('status')).toBe('4xx');

    fireEvent.input(screen.getByTestId('logs-path-filter'), { target: { value: '/v2/charges/' } });
    fireEvent.submit(screen.getByTestId('logs-path-filter').closest('form') as HTMLFormElement);
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(api.last('GET /request_log')?.query.get('path')).toBe('/v2/charges/');
  });

  it('opens a row on click: its parameters, with the card data redacted, and the response', async () => {
    openDashboard(logsApi(), '/dashboard/logs');
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(rows()[2] as HTMLElement);
    const request = await screen.findByTestId('log-detail-request');
    expect(JSON.parse(request.textContent ?? '')).toEqual({ query: {}, body: { card: { number: '[redacted]', cvc: '[redacted]', exp_month: '12' } } });
    expect(JSON.parse(screen.getByTestId('log-detail-response').textContent ?? '')).toMatchObject({ id: 'tok-1' });
    expect(screen.getByTestId('log-detail-id').textContent).toBe(ENTRIES[2]?.id);
    expect(document.activeElement?.id).toBe('log-detail-title');
  });
});
