import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiRequest, charges, fakeApi, list, listedCharge, openDashboard, session } from '../test-support.tsx';

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

const NEWEST = 60;

/** 60 charges, served newest first in pages as the API's keyset cursors select them. */
function chargesApi() {
  const all = charges(NEWEST, NEWEST);
  return fakeApi()
    .on('GET /session', session())
    .on('GET /charges', ({ query }: ApiRequest) => {
      const limit = Number(query.get('limit'));
      const after = query.get('starting_after');
      const before = query.get('ending_before');
      if (before !== null) {
        const end = all.findIndex((item) => item.id === before);
        const start = Math.max(0, end - limit);
        return { body: list('/dashboard/api/charges', all.slice(start, end), start > 0) };
      }
      const start = after === null ? 0 : all.findIndex((item) => item.id === after) + 1;
      return { body: list('/dashboard/api/charges', all.slice(start, start + limit), start + limit < all.length) };
    });
}

const rowIds = () => screen.getAllByTestId('charge-row').map((row) => row.dataset.chargeId);
const id = (n: number) => `C${String(n).padStart(20, '0')}`;

async function search(text: string) {
  const box = await screen.findByTestId('charges-search');
  fireEvent.input(box, { target: { value: text } });
  fireEvent.submit(box.closest('form') as HTMLFormElement);
}

describe('the charges list', () => {
  it('shows 25 rows a page, each with its status, amount and a link to the charge', async () => {
    const api = chargesApi();
    openDashboard(api, '/dashboard/charges');
    await waitFor(() => expect(screen.getAllByTestId('charge-row')).toHaveLength(25));
    const first = screen.getAllByTestId('charge-row')[0] as HTMLElement;
    expect(first.dataset.chargeId).toBe(id(60));
    expect(first.querySelector('[data-testid="charge-status"]')?.textContent).toBe('Charge success');
    expect(first.querySelector('[data-testid="charge-amount"]')?.textContent).toMatch(/10\.00/);
    expect(first.querySelector('a')?.getAttribute('href')).toBe(`/dashboard/charges/${id(60)}`);
    expect(api.last('GET /charges')?.query.get('limit')).toBe('25');
  });

  it('pages older with starting_after and newer with ending_before', async () => {
    const api = chargesApi();
    openDashboard(api, '/dashboard/charges');
    await waitFor(() => expect(rowIds()).toHaveLength(25));
    expect((screen.getByTestId('page-prev') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByTestId('page-next'));
    await waitFor(() => expect(rowIds()[0]).toBe(id(35)));
    expect(api.last('GET /charges')?.query.get('starting_after')).toBe(id(36));

    screen.getByTestId('page-next').focus();
    fireEvent.click(screen.getByTestId('page-next'));
    await waitFor(() => expect(rowIds()).toEqual([id(10), id(9), id(8), id(7), id(6), id(5), id(4), id(3), id(2), id(1)]));
    expect((screen.getByTestId('page-next') as HTMLButtonElement).disabled).toBe(true);
    // The last page disabled the button pressed: the keyboard's place moved to the other one.
    expect(document.activeElement).toBe(screen.getByTestId('page-prev'));

    fireEvent.click(screen.getByTestId('page-prev'));
    await waitFor(() => expect(rowIds()[0]).toBe(id(35)));
    expect(api.last('GET /charges')?.query.get('ending_before')).toBe(id(10));
    fireEvent.click(screen.getByTestId('page-prev'));
    await waitFor(() => expect(rowIds()[0]).toBe(id(60)));
    expect((screen.getByTestId('page-prev') as HTMLButtonElement).disabled).toBe(true);
  });

  it.each(['4242', 'Ada@Example.com', 'order-1001', 'C1234', id(7)])('searches %j as q on Enter, from the first page', async (text) => {
    const api = chargesApi();
    openDashboard(api, '/dashboard/charges');
    await waitFor(() => expect(rowIds()).toHaveLength(25));
    fireEvent.click(screen.getByTestId('page-next'));
    await waitFor(() => expect(rowIds()[0]).toBe(id(35)));
    await search(` ${text} `);
    await waitFor(() => expect(api.last('GET /charges')?.query.get('q')).toBe(text));
    const query = api.last('GET /charges')?.query;
    expect([...(query?.keys() ?? [])].sort()).toEqual(['limit', 'mode', 'q']);
  });

  it('lists the charge a charge id names as a row that links to it, and an empty box lists every charge again', async () => {
    const api = chargesApi();
    api.on('GET /charges', ({ query }: ApiRequest) =>
      query.get('q') === id(7)
        ? { body: list('/dashboard/api/charges', [listedCharge({ id: id(7) })]) }
        : { body: list('/dashboard/api/charges', charges(25, NEWEST)) },
    );
    openDashboard(api, '/dashboard/charges');
    await waitFor(() => expect(rowIds()).toHaveLength(25));
    await search(id(7));
    await waitFor(() => expect(rowIds()).toEqual([id(7)]));
    expect(screen.getByTestId('charge-row').querySelector('a')?.getAttribute('href')).toBe(`/dashboard/charges/${id(7)}`);
    expect(location.pathname).toBe('/dashboard/charges');

    await search('  ');
    await waitFor(() => expect(rowIds()).toHaveLength(25));
    expect(api.last('GET /charges')?.query.has('q')).toBe(false);
  });

  it('filters by status and switches the mode', async () => {
    const api = chargesApi();
    openDashboard(api, '/dashboard/charges');
    fireEvent.change(await screen.findByTestId('charges-status-filter'), { target: { value: 'REFUNDED' } });
    await waitFor(() => expect(api.last('GET /charges')?.query.get('status')).toBe('REFUNDED'));

    fireEvent.click(screen.getByTestId('mode-switch'));
    await waitFor(() => expect(api.last('GET /charges')?.query.get('mode')).toBe('live'));
    expect(screen.getByTestId('mode-switch').dataset.mode).toBe('live');
  });
});
