import type { DashboardRole } from '@payframe/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { CSRF_TOKEN, charge, error, event, fakeApi, list, openDashboard, session } from '../test-support.tsx';

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

const ID = 'C00000000000000000042';
const REFUND = {
  type: 'refund',
  id: '0b7f6a52-5d2e-4c1c-9a57-6f1f0f3f2a10',
  charge: ID,
  currency: 'EUR',
  amount: 250,
  fee_refunded: 11,
  status: 'REFUNDED',
  created: '2026-11-22T12:00:00',
  mode: 'test',
  metadata: {},
};

function chargeApi(role: DashboardRole, initial = charge({ id: ID })) {
  let current = initial;
  const events = [event('charge.created', current, 1)];
  const api = fakeApi()
    .on('GET /session', session(role))
    .on(`GET /charges/${ID}`, () => ({ body: current }))
    .on('GET /events', () => ({ body: list('/dashboard/api/events', [...events].reverse()) }))
    .on(`POST /charges/${ID}/capture`, () => {
      current = charge({ ...current, status: 'CHARGE_SUCCESS' });
      events.push(event('charge.captured', current, events.length + 1));
      return { body: current };
    })
    .on(`POST /charges/${ID}/refund`, ({ body }) => {
      const amount = (body as { amount: number }).amount;
      const remaining = current.amount - current.amount_refunded;
      // As the API decides (§7): never more than remains, and a pending charge only whole.
      if (amount > remaining)
        return error('AMOUNT_EXCEEDS_REMAINING', `The refund of ${amount} exceeds the ${remaining} that remains on the charge.`, 'amount');
      if (current.status === 'PENDING' && amount < remaining) return error('PARAMETER_INVALID', 'An uncaptured charge can only be released whole.', 'amount');
      const refunded = current.amount_refunded + amount;
      current = charge({ ...current, status: refunded === current.amount ? 'REFUNDED' : 'PARTIALLY_REFUNDED', amount_refunded: refunded });
      events.push(event('charge.refunded', current, events.length + 1));
      return { body: { ...REFUND, amount } };
    });
  return api;
}

const timeline = () => screen.getAllByTestId('timeline-item').map((item) => item.dataset.eventName);

describe('a charge', () => {
  it('shows its fields and its timeline', async () => {
    openDashboard(chargeApi('admin'), `/dashboard/charges/${ID}`);
    expect((await screen.findByTestId('charge-detail-status')).textContent).toBe('Charge success');
    expect(screen.getByTestId('charge-detail-amount').textContent).toMatch(/€\s?10\.00/);
    expect(screen.getByTestId('charge-refunded').textContent).toMatch(/€\s?0\.00/);
    expect(screen.getByText('order-1001')).toBeTruthy();
    await waitFor(() => expect(timeline()).toEqual(['charge.created']));
  });

  it('shows every event of a charge with more than a list page of them, oldest first', async () => {
    const captured = charge({ id: ID, status: 'CHARGE_SUCCESS' });
    const events = [event('charge.created', captured, 1), event('charge.captured', captured, 2)];
    for (let index = 3; index <= 130; index += 1) events.push(event('charge.refunded', captured, index));
    const newestFirst = [...events].reverse();
    const api = fakeApi()
      .on('GET /session', session('admin'))
      .on(`GET /charges/${ID}`, captured)
      .on('GET /events', ({ query }) => {
        const limit = Number(query.get('limit'));
        const after = query.get('starting_after');
        const from = after === null ? 0 : newestFirst.findIndex((item) => item.id === after) + 1;
        return { body: list('/dashboard/api/events', newestFirst.slice(from, from + limit), from + limit < newestFirst.length) };
      });
    openDashboard(api, `/dashboard/charges/${ID}`);
    await waitFor(() => expect(timeline()).toHaveLength(130));
    expect(timeline().slice(0, 3)).toEqual(['charge.created', 'charge.captured', 'charge.refunded']);
  });

  it('captures a pending charge with the CSRF token and shows the change', async () => {
    const api = chargeApi(
      'admin',
      charge({
        id: ID,
        status: 'PENDING',
        threedSecure: { redirect: 'http://x.test/3ds', returnUrl: 'http://shop.test/r', status: 'CHARGEABLE', transStatus: 'Y' },
      }),
    );
    openDashboard(api, `/dashboard/charges/${ID}`);
    fireEvent.click(await screen.findByTestId('charge-capture'));
    await waitFor(() => expect(screen.getByTestId('charge-detail-status').textContent).toBe('Charge success'));
    expect(api.last(`POST /charges/${ID}/capture`)?.headers.get('X-CSRF-Token')).toBe(CSRF_TOKEN);
    expect(api.last(`POST /charges/${ID}/capture`)?.query.get('mode')).toBe('test');
    await waitFor(() => expect(timeline()).toEqual(['charge.created', 'charge.captured']));
  });

  it('refunds part of a charge in major units, after a confirmation step', async () => {
    const api = chargeApi('admin');
    openDashboard(api, `/dashboard/charges/${ID}`);
    fireEvent.click(await screen.findByTestId('charge-refund'));
    const amount = screen.getByTestId('refund-amount') as HTMLInputElement;
    expect(amount.value).toBe('10.00');
    expect(api.last(`POST /charges/${ID}/refund`)).toBeUndefined();

    fireEvent.input(amount, { target: { value: '2.50' } });
    expect(screen.getByTestId('refund-confirm').textContent).toMatch(/2\.50/);
    fireEvent.click(screen.getByTestId('refund-confirm'));
    await waitFor(() => expect(screen.getByTestId('charge-refunded').textContent).toMatch(/2\.50/));
    expect(api.last(`POST /charges/${ID}/refund`)?.body).toEqual({ amount: 250 });
    expect(screen.queryByTestId('refund-amount')).toBeNull();
    await waitFor(() => expect(timeline()).toEqual(['charge.created', 'charge.refunded']));
  });

  it('sends an amount above what remains and shows why the API refuses it at the action', async () => {
    const api = chargeApi('admin');
    openDashboard(api, `/dashboard/charges/${ID}`);
    fireEvent.click(await screen.findByTestId('charge-refund'));
    fireEvent.input(screen.getByTestId('refund-amount'), { target: { value: '10.01' } });
    const confirm = screen.getByTestId('refund-confirm') as HTMLButtonElement;
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    const shown = await screen.findByTestId('action-error');
    expect(shown.textContent).toContain('exceeds the 1000 that remains');
    expect(shown.textContent).toContain('AMOUNT_EXCEEDS_REMAINING');
    expect(api.last(`POST /charges/${ID}/refund`)?.body).toEqual({ amount: 1001 });
    expect(screen.getByTestId('charge-refunded').textContent).toMatch(/0\.00/);
  });

  it('says at the action that text which is no amount cannot be refunded, without sending it', async () => {
    const api = chargeApi('admin');
    openDashboard(api, `/dashboard/charges/${ID}`);
    fireEvent.click(await screen.findByTestId('charge-refund'));
    for (const [text, why] of [
      ['2.505', /EUR has at most 2 decimals/],
      ['0', /greater than zero/],
      ['two', /not an amount/],
      ['', /Enter an amount\./],
      ['1,5', /ambiguous/],
    ] as const) {
      fireEvent.input(screen.getByTestId('refund-amount'), { target: { value: text } });
      fireEvent.click(screen.getByTestId('refund-confirm'));
      const shown = (await screen.findByTestId('action-error')).textContent;
      expect(shown).toMatch(why);
      expect(shown).toMatch(/from €\s?0\.01 to €\s?10\.00/);
    }
    expect(api.last(`POST /charges/${ID}/refund`)).toBeUndefined();
  });

  it('refunds a pending charge whole, releasing its authorization', async () => {
    const pending = charge({
      id: ID,
      status: 'PENDING',
      fees: null,
      threedSecure: { redirect: 'http://x.test/3ds', returnUrl: 'http://shop.test/r', status: 'CHARGEABLE', transStatus: 'Y' },
    });
    const api = chargeApi('admin', pending);
    openDashboard(api, `/dashboard/charges/${ID}`);
    fireEvent.click(await screen.findByTestId('charge-refund'));
    const amount = screen.getByTestId('refund-amount') as HTMLInputElement;
    expect(amount.value).toBe('10.00');

    fireEvent.input(amount, { target: { value: '2.50' } });
    fireEvent.click(screen.getByTestId('refund-confirm'));
    expect((await screen.findByTestId('action-error')).textContent).toContain('PARAMETER_INVALID');

    fireEvent.input(amount, { target: { value: '10.00' } });
    fireEvent.click(screen.getByTestId('refund-confirm'));
    await waitFor(() => expect(screen.getByTestId('charge-detail-status').textContent).toBe('Refunded'));
    expect(api.last(`POST /charges/${ID}/refund`)?.body).toEqual({ amount: 1000 });
    expect(screen.queryByTestId('charge-refund')).toBeNull();
    expect(screen.queryByTestId('charge-capture')).toBeNull();
  });

  it('shows an API error at the action', async () => {
    const api = chargeApi('admin').on(`POST /charges/${ID}/refund`, () => error('CHARGE_ALREADY_REFUNDED', 'The charge has already been refunded in full.'));
    openDashboard(api, `/dashboard/charges/${ID}`);
    fireEvent.click(await screen.findByTestId('charge-refund'));
    fireEvent.click(screen.getByTestId('refund-confirm'));
    const shown = await screen.findByTestId('action-error');
    expect(shown.textContent).toContain('The charge has already been refunded in full.');
    expect(shown.textContent).toContain('CHARGE_ALREADY_REFUNDED');
    expect(screen.getByTestId('refund-amount')).toBeTruthy();
  });
});

describe('money typed in the browser’s locale', () => {
  const speaking = (language: string) => Object.defineProperty(navigator, 'language', { value: language, configurable: true });
  afterEach(() => speaking('en-US'));

  it('reads 1,000 in en-US on a KWD charge as KWD 1,000.000, never KWD 1.000', async () => {
    speaking('en-US');
    const kwd = charge({ id: ID, currency: 'KWD', amount: 2_000_000, amount_captured: 2_000_000, fees: 0 });
    const api = chargeApi('admin', kwd);
    openDashboard(api, `/dashboard/charges/${ID}`);
    fireEvent.click(await screen.findByTestId('charge-refund'));
    expect((screen.getByTestId('refund-amount') as HTMLInputElement).value).toBe('2,000.000');
    fireEvent.input(screen.getByTestId('refund-amount'), { target: { value: '1,000' } });
    fireEvent.click(screen.getByTestId('refund-confirm'));
    await waitFor(() => expect(api.last(`POST /charges/${ID}/refund`)?.body).toEqual({ amount: 1_000_000 }));
  });

  it('reads de-DE separators and refuses a dot used as a decimal point there', async () => {
    speaking('de-DE');
    const api = chargeApi('admin', charge({ id: ID, amount: 150_000, amount_captured: 150_000 }));
    openDashboard(api, `/dashboard/charges/${ID}`);
    fireEvent.click(await screen.findByTestId('charge-refund'));
    expect((screen.getByTestId('refund-amount') as HTMLInputElement).value).toBe('1.500,00');
    fireEvent.input(screen.getByTestId('refund-amount'), { target: { value: '2.50' } });
    fireEvent.click(screen.getByTestId('refund-confirm'));
    expect((await screen.findByTestId('action-error')).textContent).toMatch(/ambiguous/);
    expect(api.last(`POST /charges/${ID}/refund`)).toBeUndefined();
    fireEvent.input(screen.getByTestId('refund-amount'), { target: { value: '1.000,5' } });
    fireEvent.click(screen.getByTestId('refund-confirm'));
    await waitFor(() => expect(api.last(`POST /charges/${ID}/refund`)?.body).toEqual({ amount: 100_050 }));
  });

  it('refuses decimals a zero-decimal currency does not have', async () => {
    speaking('en-US');
    const api = chargeApi('admin', charge({ id: ID, currency: 'JPY', amount: 5000, amount_captured: 5000, fees: 0 }));
    openDashboard(api, `/dashboard/charges/${ID}`);
    fireEvent.click(await screen.findByTestId('charge-refund'));
    fireEvent.input(screen.getByTestId('refund-amount'), { target: { value: '1.5' } });
    fireEvent.click(screen.getByTestId('refund-confirm'));
    expect((await screen.findByTestId('action-error')).textContent).toMatch(/JPY has no decimals/);
    expect(api.last(`POST /charges/${ID}/refund`)).toBeUndefined();
  });

  it('captures part of a pending charge in the locale’s notation', async () => {
    speaking('de-DE');
    const pending = charge({
      id: ID,
      status: 'PENDING',
      amount: 150_000,
      amount_captured: 0,
      fees: null,
      threedSecure: { redirect: 'http://x.test/3ds', returnUrl: 'http://shop.test/r', status: 'CHARGEABLE', transStatus: 'Y' },
    });
    const api = chargeApi('admin', pending);
    openDashboard(api, `/dashboard/charges/${ID}`);
    const amount = (await screen.findByTestId('capture-amount')) as HTMLInputElement;
    expect(amount.value).toBe('1.500,00');
    fireEvent.input(amount, { target: { value: '1.000,5' } });
    fireEvent.click(screen.getByTestId('charge-capture'));
    await waitFor(() => expect(api.last(`POST /charges/${ID}/capture`)?.body).toEqual({ amount: 100_050 }));
  });
});

describe('a viewer', () => {
  it('sees a pending charge without capture or cancel, and a captured one without refund', async () => {
    const pending = charge({ id: ID, status: 'PENDING' });
    openDashboard(chargeApi('viewer', pending), `/dashboard/charges/${ID}`);
    expect((await screen.findByTestId('charge-detail-status')).textContent).toBe('Pending');
    expect(screen.queryByTestId('charge-capture')).toBeNull();
    expect(screen.queryByTestId('charge-cancel')).toBeNull();
    expect(screen.queryByTestId('charge-refund')).toBeNull();
    cleanup();

    openDashboard(chargeApi('viewer'), `/dashboard/charges/${ID}`);
    expect((await screen.findByTestId('charge-detail-status')).textContent).toBe('Charge success');
    expect(screen.queryByTestId('charge-refund')).toBeNull();
  });

  it('is told apart from an admin, who sees capture, cancel and refund on the same charge', async () => {
    const pending = charge({ id: ID, status: 'PENDING' });
    openDashboard(chargeApi('admin', pending), `/dashboard/charges/${ID}`);
    expect(await screen.findByTestId('charge-capture')).toBeTruthy();
    expect(screen.getByTestId('charge-cancel')).toBeTruthy();
    expect(screen.getByTestId('charge-refund')).toBeTruthy();
  });
});
