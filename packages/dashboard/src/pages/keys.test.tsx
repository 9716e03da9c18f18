import type { ApiKeyRow, DashboardRole } from '@payframe/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { CSRF_TOKEN, fakeApi, list, openDashboard, session } from '../test-support.tsx';

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

const SECRET = 'sk_test_4eC39HqLyjWDarjtT1zdp7dcAbCd';
const PUBLISHABLE = 'pk_test_TYooMQauvdEDq54NiTphI7jxWxYz';

function row(id: string, hint: string, kind: ApiKeyRow['kind'] = 'secret'): ApiKeyRow {
  return { id, kind, mode: 'test', hint, created: 1_795_342_555, last_used: null, revoked: null };
}

function keysApi(role: DashboardRole) {
  let rows = [row('k1', 'sk_test_…Old1', 'secret')];
  return fakeApi()
    .on('GET /session', session(role))
    .on('GET /keys', () => ({ body: { type: 'list', data: rows } }))
    .on('POST /keys', () => {
      const created = [row('k2', 'sk_test_…AbCd'), row('k3', 'pk_test_…WxYz', 'publishable')];
      rows = [...created, ...rows];
      return { body: { secretKey: SECRET, publishableKey: PUBLISHABLE, keys: created } };
    })
    .on('POST /keys/k1/revoke', () => {
      rows = rows.map((key) => (key.id === 'k1' ? { ...key, revoked: 1_795_342_999 } : key));
      return { body: rows.find((key) => key.id === 'k1') };
    })
    .on('GET /webhook_endpoints', list('/dashboard/api/webhook_endpoints', []))
    .on('GET /events', list('/dashboard/api/events', []))
    .on('GET /clock', { type: 'test_clock', now: 1_795_342_555, offset: 0 });
}

describe('API keys', () => {
  it('lists keys by their hint only', async () => {
    openDashboard(keysApi('admin'), '/dashboard/keys');
    const [first] = await screen.findAllByTestId('key-row');
    expect(first?.dataset.keyId).toBe('k1');
    expect(first?.textContent).toContain('sk_test_…Old1');
    expect(first?.textContent).toContain('Never');
  });

  it('creates a pair in one click and shows the secret once', async () => {
    const api = keysApi('admin');
    openDashboard(api, '/dashboard/keys');
    fireEvent.click(await screen.findByTestId('key-create'));
    expect((await screen.findByTestId('key-secret-once')).textContent).toBe(SECRET);
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('key-row')).toHaveLength(3));
    expect(api.last('POST /keys')?.headers.get('X-CSRF-Token')).toBe(CSRF_TOKEN);
    expect(api.last('POST /keys')?.query.get('mode')).toBe('test');
    expect(document.body.textContent?.split(SECRET)).toHaveLength(2);

    fireEvent.click(screen.getByTestId('nav-charges'));
    fireEvent.click(screen.getByTestId('nav-keys'));
    await waitFor(() => expect(screen.getAllByTestId('key-row')).toHaveLength(3));
    expect(screen.queryByTestId('key-secret-once')).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('revokes a key only after its one confirmation', async () => {
    const api = keysApi('admin');
    openDashboard(api, '/dashboard/keys');
    fireEvent.click(await screen.findByTestId('key-revoke'));
    expect(screen.getAllByTestId('key-revoke-confirm')).toHaveLength(1);
    expect(document.activeElement).toBe(screen.getByTestId('key-revoke-confirm'));
    expect(api.last('POST /keys/k1/revoke')).toBeUndefined();

    fireEvent.click(screen.getByTestId('key-revoke-confirm'));
    await waitFor(() => expect(screen.getByTestId('key-row').textContent).toContain('Revoked'));
    expect(api.last('POST /keys/k1/revoke')?.headers.get('X-CSRF-Token')).toBe(CSRF_TOKEN);
    expect(screen.queryByTestId('key-revoke')).toBeNull();
  });
});

describe('navigation', () => {
  it('moves the focus to the new page heading, for screen readers and keyboards', async () => {
    openDashboard(keysApi('admin'), '/dashboard/keys');
    await screen.findAllByTestId('key-row');
    fireEvent.click(screen.getByTestId('nav-webhooks'));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Webhooks' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(location.pathname).toBe('/dashboard/webhooks');
    expect(document.title).toBe('Webhooks · Payframe dashboard');
  });

  it('answers an unknown dashboard path with a page that leads back', async () => {
    openDashboard(keysApi('admin'), '/dashboard/nowhere');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the charges' }).getAttribute('href')).toBe('/dashboard/charges');
  });
});

describe('a viewer', () => {
  it('gets no key, webhook or clock mutation controls', async () => {
    openDashboard(keysApi('viewer'), '/dashboard/keys');
    expect(await screen.findAllByTestId('key-row')).toHaveLength(1);
    expect(screen.queryByTestId('key-create')).toBeNull();
    expect(screen.queryByTestId('key-revoke')).toBeNull();

    fireEvent.click(screen.getByTestId('nav-webhooks'));
    expect(await screen.findByRole('heading', { name: 'Webhooks' })).toBeTruthy();
    expect(screen.queryByTestId('webhook-add')).toBeNull();
    expect(screen.queryByTestId('delivery-resend')).toBeNull();

    fireEvent.click(screen.getByRole('link', { name: 'Test clock' }));
    expect(await screen.findByTestId('clock-now')).toBeTruthy();
    expect(screen.queryByTestId('clock-advance')).toBeNull();
  });
});
