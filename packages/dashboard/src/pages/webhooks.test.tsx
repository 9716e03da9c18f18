import type { DashboardRole } from '@payframe/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { CSRF_TOKEN, charge, event, fakeApi, list, openDashboard, session } from '../test-support.tsx';

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

const SECRET = `whsec_${'A'.repeat(43)}=`;
const ENDPOINT = {
  type: 'webhook_endpoint',
  id: 'we_1',
  url: 'http://127.0.0.1:9999/hooks',
  events: ['charge.created'],
  description: null,
  disabled: false,
  created: 1_795_342_555,
  mode: 'test',
};
const DELIVERY = { type: 'webhook_delivery', endpoint: 'we_1', event: 'evt_1', attempts: 1, last_error: null, next_attempt: null };

function webhooksApi(role: DashboardRole) {
  let endpoints: unknown[] = [];
  let clock = { type: 'test_clock', now: 1_795_342_555, offset: 0 };
  return fakeApi()
    .on('GET /session', session(role))
    .on('GET /webhook_endpoints', () => ({ body: list('/dashboard/api/webhook_endpoints', endpoints) }))
    .on('POST /webhook_endpoints', ({ body }) => {
      const created = { ...ENDPOINT, url: (body as { url: string }).url };
      endpoints = [created];
      return { body: { ...created, secret: SECRET } };
    })
    .on('GET /events', list('/dashboard/api/events', [event('charge.created', charge(), 1)]))
    .on('GET /events/evt_1/deliveries', list('/dashboard/api/events/evt_1/deliveries', [{ ...DELIVERY, status: 'failed', last_status_code: 500 }]))
    .on('POST /events/evt_1/resend', list('/dashboard/api/events/evt_1/deliveries', [{ ...DELIVERY, status: 'pending', attempts: 0, last_status_code: null }]))
    .on('GET /clock', () => ({ body: clock }))
    .on('POST /clock', ({ body }) => {
      const seconds = (body as { advance_seconds: number }).advance_seconds;
      clock = { type: 'test_clock', now: clock.now + seconds, offset: clock.offset + seconds };
      return { body: clock };
    })
    .on('GET /account', { id: 'acct_demo', name: 'Demo shop' })
    .on('POST /account', ({ body }) => ({ body: { id: 'acct_demo', name: (body as { name: string }).name } }));
}

describe('webhooks', () => {
  it('adds an endpoint and shows its secret once', async () => {
    const api = webhooksApi('admin');
    openDashboard(api, '/dashboard/webhooks');
    fireEvent.input(await screen.findByTestId('webhook-url'), { target: { value: 'http://127.0.0.1:9999/hooks' } });
    fireEvent.click(screen.getByTestId('webhook-add'));
    expect((await screen.findByTestId('webhook-secret-once')).textContent).toBe(SECRET);
    await waitFor(() => expect(screen.getAllByTestId('webhook-row')).toHaveLength(1));
    expect(api.last('POST /webhook_endpoints')?.body).toEqual({ url: 'http://127.0.0.1:9999/hooks' });
    expect(api.last('POST /webhook_endpoints')?.headers.get('X-CSRF-Token')).toBe(CSRF_TOKEN);
  });

  it('lists recent deliveries with their status and resends one to its endpoint', async () => {
    const api = webhooksApi('admin');
    openDashboard(api, '/dashboard/webhooks');
    const [row] = await screen.findAllByTestId('delivery-row');
    expect(row?.dataset.status).toBe('failed');
    const reads = () => api.requests.filter((request) => request.path === '/events/evt_1/deliveries').length;
    const before = reads();
    fireEvent.click(screen.getByTestId('delivery-resend'));
    await waitFor(() => expect(api.last('POST /events/evt_1/resend')?.body).toEqual({ endpoint: 'we_1' }));
    // The deliveries are read again, to show the resent one's new attempt.
    await waitFor(() => expect(reads()).toBeGreaterThan(before));
  });
});

describe('the test clock', () => {
  it('shows the time and advances it by days', async () => {
    const api = webhooksApi('admin');
    openDashboard(api, '/dashboard/clock');
    const before = (await screen.findByTestId('clock-now')).getAttribute('datetime');
    fireEvent.input(screen.getByTestId('clock-advance-days'), { target: { value: '7' } });
    fireEvent.click(screen.getByTestId('clock-advance'));
    await waitFor(() => expect(screen.getByTestId('clock-now').getAttribute('datetime')).not.toBe(before));
    expect(api.last('POST /clock')?.body).toEqual({ advance_seconds: 7 * 86_400 });
    expect(screen.getByTestId('clock-now').getAttribute('datetime')).toBe(new Date((1_795_342_555 + 7 * 86_400) * 1000).toISOString());
  });

  it('is not offered in live mode', async () => {
    sessionStorage.setItem('payframe-dashboard-mode', 'live');
    openDashboard(webhooksApi('admin'), '/dashboard/clock');
    expect(await screen.findByText(/Switch to test mode/)).toBeTruthy();
    expect(screen.queryByTestId('clock-advance')).toBeNull();
  });
});

describe('settings', () => {
  it('renames the account, and the header follows', async () => {
    const api = webhooksApi('admin');
    openDashboard(api, '/dashboard/settings');
    const name = (await screen.findByTestId('account-name')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Demo shop'));
    fireEvent.input(name, { target: { value: 'Ada’s Shop' } });
    fireEvent.click(screen.getByTestId('account-save'));
    await waitFor(() => expect(screen.getByText('Saved.')).toBeTruthy());
    expect(api.last('POST /account')?.body).toEqual({ name: 'Ada’s Shop' });
    expect(screen.getByRole('banner').textContent).toContain('Ada’s Shop');
  });
});

describe('a viewer', () => {
  it('sees deliveries without resend, and the account name without save', async () => {
    openDashboard(webhooksApi('viewer'), '/dashboard/webhooks');
    expect(await screen.findAllByTestId('delivery-row')).toHaveLength(1);
    expect(screen.queryByTestId('delivery-resend')).toBeNull();
    expect(screen.queryByTestId('webhook-add')).toBeNull();

    fireEvent.click(screen.getByTestId('nav-settings'));
    expect(((await screen.findByTestId('account-name')) as HTMLInputElement).readOnly).toBe(true);
    expect(screen.queryByTestId('account-save')).toBeNull();
  });
});

describe('deleting an endpoint', () => {
  it('asks once, then deletes with the CSRF token', async () => {
    const api = webhooksApi('admin')
      .on('GET /webhook_endpoints', list('/dashboard/api/webhook_endpoints', [ENDPOINT]))
      .on('DELETE /webhook_endpoints/we_1', { type: 'webhook_endpoint', id: 'we_1', deleted: true });
    openDashboard(api, '/dashboard/webhooks');
    fireEvent.click(await screen.findByRole('button', { name: `Delete ${ENDPOINT.url}` }));
    expect(api.last('DELETE /webhook_endpoints/we_1')).toBeUndefined();
    const confirm = screen.getByRole('button', { name: `Delete ${ENDPOINT.url}` });
    expect(document.activeElement).toBe(confirm);
    fireEvent.click(confirm);
    await waitFor(() => expect(api.last('DELETE /webhook_endpoints/we_1')?.headers.get('X-CSRF-Token')).toBe(CSRF_TOKEN));
  });
});
