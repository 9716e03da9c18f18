import { EVENT_NAMES } from '@payframe/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { CSRF_TOKEN, charge, charges, event, fakeApi, list, listedCharge, openDashboard, session } from '../test-support.tsx';
import { createdRange } from './charges.tsx';

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

const NOW = 1_795_342_555;
const ENDPOINT = {
  type: 'webhook_endpoint',
  id: 'we_1',
  url: 'http://127.0.0.1:9999/hooks',
  events: ['charge.created'],
  description: 'orders',
  disabled: false,
  created: NOW,
  mode: 'test',
};

function baseApi(offset = 0) {
  return fakeApi()
    .on('GET /session', session())
    .on('GET /clock', { type: 'test_clock', now: NOW + offset, offset });
}

describe('webhooks', () => {
  it('adds an endpoint with the events ticked and a description', async () => {
    const api = baseApi()
      .on('GET /webhook_endpoints', list('/dashboard/api/webhook_endpoints', []))
      .on('GET /events', list('/dashboard/api/events', []))
      .on('POST /webhook_endpoints', ({ body }) => ({ body: { ...ENDPOINT, ...(body as object), secret: `whsec_${'A'.repeat(43)}=` } }));
    openDashboard(api, '/dashboard/webhooks');
    const events = await screen.findByTestId('webhook-events');
    const boxes = within(events).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((box) => box.value)).toEqual([...EVENT_NAMES]);
    expect(boxes.every((box) => box.checked)).toBe(true);
    for (const box of boxes) if (!['charge.captured', 'charge.refunded'].includes(box.value)) fireEvent.click(box);
    fireEvent.input(screen.getByTestId('webhook-url'), { target: { value: 'https://shop.test/hooks' } });
    fireEvent.input(screen.getByTestId('webhook-description'), { target: { value: 'Refunds desk' } });
    fireEvent.click(screen.getByTestId('webhook-add'));
    await waitFor(() =>
      expect(api.last('POST /webhook_endpoints')?.body).toEqual({
        url: 'https://shop.test/hooks',
        events: ['charge.captured', 'charge.refunded'],
        description: 'Refunds desk',
      }),
    );
  });

  it('opens an endpoint on a click of its row, with its deliveries by URL, and disables it', async () => {
    let endpoint = { ...ENDPOINT };
    const delivery = {
      type: 'webhook_delivery',
      endpoint: 'we_1',
      event: 'evt_1',
      attempts: 3,
      last_status_code: 500,
      last_error: 'HTTP 500',
      next_attempt: null,
    };
    const api = baseApi()
      .on('GET /webhook_endpoints', () => ({ body: list('/dashboard/api/webhook_endpoints', [endpoint]) }))
      .on('GET /events', list('/dashboard/api/events', [event('charge.created', charge(), 1)]))
      .on('GET /events/evt_1/deliveries', list('/dashboard/api/events/evt_1/deliveries', [{ ...delivery, status: 'failed' }]))
      .on('POST /webhook_endpoints/we_1', ({ body }) => {
        endpoint = { ...endpoint, ...(body as object) };
        return { body: endpoint };
      });
    openDashboard(api, '/dashboard/webhooks');
    const [deliveryRow] = await screen.findAllByTestId('delivery-row');
    expect(deliveryRow?.textContent).toContain(ENDPOINT.url);
    expect(deliveryRow?.textContent).not.toContain('we_1');

    fireEvent.click(screen.getByTestId('webhook-row'));
    const detail = await screen.findByTestId('webhook-detail');
    const [row] = await within(detail).findAllByTestId('webhook-detail-delivery');
    expect(row?.textContent).toContain(ENDPOINT.url);
    expect(row?.textContent).toContain('Failed');
    expect(row?.textContent).toContain('3');
    expect(row?.textContent).toContain('HTTP 500');

    fireEvent.click(screen.getByTestId('webhook-toggle'));
    await waitFor(() => expect(api.last('POST /webhook_endpoints/we_1')?.body).toEqual({ disabled: true }));
    expect(api.last('POST /webhook_endpoints/we_1')?.headers.get('X-CSRF-Token')).toBe(CSRF_TOKEN);
    await waitFor(() => expect(screen.getByTestId('webhook-row').dataset.disabled).toBe('true'));
    expect(screen.getByTestId('webhook-toggle').textContent).toBe('Enable');
  });

  it('finds an opened endpoint’s deliveries among the newest events of the names it takes, however many others came after', async () => {
    const endpoint = { ...ENDPOINT, events: ['charge.refunded'] };
    const refunded = event('charge.refunded', charge(), 1);
    const later = Array.from({ length: 25 }, (_, i) => event('charge.created', charge(), i + 2));
    const delivery = (to: string, eventId: string) => ({
      type: 'webhook_delivery',
      endpoint: to,
      event: eventId,
      attempts: 1,
      status: 'succeeded',
      last_status_code: 200,
      last_error: null,
      next_attempt: null,
    });
    let api = baseApi()
      .on('GET /webhook_endpoints', list('/dashboard/api/webhook_endpoints', [endpoint]))
      .on('GET /events', ({ query }) => ({ body: list('/dashboard/api/events', query.get('name') === 'charge.refunded' ? [refunded] : later) }))
      .on(`GET /events/${refunded.id}/deliveries`, list('/dashboard/api/events/deliveries', [delivery('we_1', refunded.id)]));
    for (const other of later) api = api.on(`GET /events/${other.id}/deliveries`, list('/dashboard/api/events/deliveries', [delivery('we_2', other.id)]));
    openDashboard(api, '/dashboard/webhooks');
    fireEvent.click(await screen.findByTestId('webhook-row'));
    const detail = await screen.findByTestId('webhook-detail');
    const rows = await within(detail).findAllByTestId('webhook-detail-delivery');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.textContent).toContain('refunded');
    expect(api.requests.some((request) => request.path === '/events' && request.query.get('name') === 'charge.refunded')).toBe(true);
  });
});

describe('events', () => {
  it('filters by name and shows an event’s whole JSON', async () => {
    const created = event('charge.created', charge(), 1);
    const api = baseApi().on('GET /events', list('/dashboard/api/events', [created]));
    openDashboard(api, '/dashboard/events');
    await screen.findAllByTestId('event-row');
    fireEvent.change(screen.getByTestId('events-name-filter'), { target: { value: 'charge.refunded' } });
    await waitFor(() => expect(api.last('GET /events')?.query.get('name')).toBe('charge.refunded'));
    fireEvent.click(await screen.findByRole('button', { name: `Show the JSON of ${created.id}` }));
    expect(JSON.parse((await screen.findByTestId('event-json')).textContent ?? '')).toEqual(created);
  });

  it('opens an event’s JSON when its row is clicked, as its button does', async () => {
    const created = event('charge.created', charge(), 1);
    openDashboard(baseApi().on('GET /events', list('/dashboard/api/events', [created])), '/dashboard/events');
    const [row] = await screen.findAllByTestId('event-row');
    fireEvent.click(row?.querySelector('td') as HTMLElement);
    expect(JSON.parse((await screen.findByTestId('event-json')).textContent ?? '')).toEqual(created);
    // The row's button still closes it (one toggle, not a toggle and a reopening).
    fireEvent.click(screen.getByRole('button', { name: `Hide the JSON of ${created.id}` }));
    await waitFor(() => expect(screen.queryByTestId('event-json')).toBeNull());
  });
});

describe('charges', () => {
  it('shows the e-mail and description, filters by date and exports the current filter', async () => {
    const api = baseApi().on('GET /charges', list('/dashboard/api/charges', [listedCharge({ description: 'Blue mug' }, 'Grace@Example.com')]));
    openDashboard(api, '/dashboard/charges');
    expect((await screen.findByTestId('charge-email')).textContent).toBe('Grace@Example.com');
    expect(screen.getByTestId('charge-description').textContent).toBe('Blue mug');

    fireEvent.change(screen.getByTestId('charges-created-from'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByTestId('charges-created-to'), { target: { value: '2026-11-30' } });
    const range = createdRange('2026-11-01', '2026-11-30');
    await waitFor(() => expect(api.last('GET /charges')?.query.get('created[gte]')).toBe(String(range['created[gte]'])));
    expect(api.last('GET /charges')?.query.get('created[lt]')).toBe(String(range['created[lt]']));
    const href = new URL((screen.getByTestId('charges-export') as HTMLAnchorElement).href);
    expect(href.pathname).toBe('/dashboard/api/charges/export');
    expect(Object.fromEntries(href.searchParams)).toEqual({
      mode: 'test',
      'created[gte]': String(range['created[gte]']),
      'created[lt]': String(range['created[lt]']),
    });
  });

  it('turns picked days into the local start of the first and the end of the last', () => {
    const { 'created[gte]': gte, 'created[lt]': lt } = createdRange('2026-03-28', '2026-03-29');
    expect(new Date((gte ?? 0) * 1000)).toEqual(new Date(2026, 2, 28));
    expect(new Date((lt ?? 0) * 1000)).toEqual(new Date(2026, 2, 30));
    expect(createdRange('', '')).toEqual({});
  });

  it('shows a charge’s metadata', async () => {
    const api = baseApi()
      .on('GET /charges/C1', charge({ id: 'C00000000000000000001', metadata: { order_id: '1042', channel: 'web' } }))
      .on('GET /events', list('/dashboard/api/events', []));
    openDashboard(api, '/dashboard/charges/C1');
    const metadata = await screen.findByTestId('charge-metadata');
    expect(metadata.textContent).toContain('order_id: 1042');
    expect(metadata.textContent).toContain('channel: web');
  });
});

describe('one clock', () => {
  it('shows clock-banner on every page while the test clock is ahead, and key times on it', async () => {
    const created = NOW - 3600;
    const api = baseApi(7 * 86_400)
      .on('GET /charges', list('/dashboard/api/charges', charges(1, 1)))
      .on('GET /keys', { type: 'list', data: [{ id: 'k1', kind: 'secret', mode: 'test', hint: 'sk_test_…AbCd', created, last_used: null, revoked: null }] });
    openDashboard(api, '/dashboard/charges');
    expect((await screen.findByTestId('clock-banner')).textContent).toContain('7 d 0 h ahead');
    fireEvent.click(screen.getByTestId('nav-keys'));
    const [row] = await screen.findAllByTestId('key-row');
    expect(screen.getByTestId('clock-banner')).toBeTruthy();
    const shown = new Date((created + 7 * 86_400) * 1000).toLocaleString(navigator.language, { dateStyle: 'medium', timeStyle: 'short' });
    expect(row?.textContent).toContain(shown);
  });

  it('follows the clock moved elsewhere (the API, another user) on the next page opened', async () => {
    let offset = 0;
    const api = fakeApi()
      .on('GET /session', session())
      .on('GET /clock', () => ({ body: { type: 'test_clock', now: NOW + offset, offset } }))
      .on('GET /charges', list('/dashboard/api/charges', []))
      .on('GET /keys', { type: 'list', data: [] });
    openDashboard(api, '/dashboard/charges');
    await screen.findByText('No charges match.');
    expect(screen.queryByTestId('clock-banner')).toBeNull();
    offset = 2 * 86_400;
    fireEvent.click(screen.getByTestId('nav-keys'));
    expect((await screen.findByTestId('clock-banner')).textContent).toContain('2 d 0 h ahead');
  });

  it('is not shown while the test clock is on real time', async () => {
    openDashboard(baseApi(0).on('GET /charges', list('/dashboard/api/charges', [])), '/dashboard/charges');
    await screen.findByText('No charges match.');
    expect(screen.queryByTestId('clock-banner')).toBeNull();
  });
});

describe('settings', () => {
  const USERS = [
    { id: 'u1', email: 'demo@payframe.test', role: 'admin', created: NOW },
    { id: 'u2', email: 'viewer@shop.test', role: 'viewer', created: NOW },
  ];

  it('an admin invites a user, sees the password once, and removes another user', async () => {
    let users = [...USERS];
    const api = baseApi()
      .on('GET /account', { id: 'acct_demo', name: 'Demo shop' })
      .on('GET /users', () => ({ body: { type: 'list', data: users } }))
      .on('POST /users', ({ body }) => {
        const invited = { id: 'u3', ...(body as { email: string; role: string }), created: NOW };
        users = [...users, invited];
        return { body: { ...invited, password: 'one-time-password-xyz' } };
      })
      .on('DELETE /users/u2', () => {
        users = users.filter((user) => user.id !== 'u2');
        return { body: { id: 'u2', deleted: true } };
      });
    openDashboard(api, '/dashboard/settings');
    expect(await screen.findAllByTestId('users-row')).toHaveLength(2);
    fireEvent.input(screen.getByTestId('users-invite-email'), { target: { value: 'new@shop.test' } });
    fireEvent.change(screen.getByTestId('users-invite-role'), { target: { value: 'admin' } });
    fireEvent.click(screen.getByTestId('users-invite-submit'));
    expect((await screen.findByTestId('users-password')).textContent).toBe('one-time-password-xyz');
    expect(api.last('POST /users')?.body).toEqual({ email: 'new@shop.test', role: 'admin' });
    await waitFor(() => expect(screen.getAllByTestId('users-row')).toHaveLength(3));

    // Oneself cannot be removed; another user after one confirmation.
    expect(screen.getAllByTestId('users-remove')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Remove viewer@shop.test' }));
    fireEvent.click(screen.getByTestId('users-remove-confirm'));
    await waitFor(() => expect(api.last('DELETE /users/u2')?.headers.get('X-CSRF-Token')).toBe(CSRF_TOKEN));
    await waitFor(() => expect(screen.getAllByTestId('users-row').map((row) => row.dataset.email)).not.toContain('viewer@shop.test'));
  });

  it('every user changes their own password; a viewer sees no users', async () => {
    const api = fakeApi()
      .on('GET /session', session('viewer'))
      .on('GET /clock', { type: 'test_clock', now: NOW, offset: 0 })
      .on('GET /account', { id: 'acct_demo', name: 'Demo shop' })
      .on('POST /password', { ok: true });
    openDashboard(api, '/dashboard/settings');
    fireEvent.input(await screen.findByTestId('password-current'), { target: { value: 'old password 123' } });
    fireEvent.input(screen.getByTestId('password-new'), { target: { value: 'new password 456' } });
    fireEvent.click(screen.getByTestId('password-save'));
    await waitFor(() => expect(api.last('POST /password')?.body).toEqual({ current_password: 'old password 123', new_password: 'new password 456' }));
    expect(await screen.findByText(/other sessions are signed out/)).toBeTruthy();
    expect(screen.queryByTestId('users-invite-email')).toBeNull();
    expect(api.last('GET /users')).toBeUndefined();
  });
});
