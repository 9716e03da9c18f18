import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, openDashboard, overview, session } from '../test-support.tsx';

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

const homeApi = () =>
  fakeApi()
    .on('GET /session', session())
    .on('GET /overview', ({ query }) => ({
      body:
        query.get('period') === 'today'
          ? overview({ period: 'today', created: 0, succeeded: 0, success_rate: null, volume: [], days: [{ date: '2026-11-26', succeeded: 0, volume: [] }] })
          : overview(),
    }));

describe('the home page', () => {
  it('shows volume per currency as money, the count, the success rate, refunds and both breakdowns', async () => {
    const api = homeApi();
    openDashboard(api, '/dashboard/home');
    const volume = await screen.findByTestId('overview-volume');
    expect(api.last('GET /overview')?.query.get('mode')).toBe('test');
    expect(api.last('GET /overview')?.query.get('period')).toBe('7d');
    expect(
      within(volume)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['€1,500.00', '$25.00']);
    expect(screen.getByTestId('overview-count').textContent).toBe('6');
    expect(screen.getByTestId('overview-success-rate').textContent).toMatch(/^75%/);
    expect(screen.getByTestId('overview-refunds').textContent).toMatch(/1 refund.*€3\.00/);
    expect(screen.getAllByTestId('overview-decline').map((row) => [row.dataset.reason, row.textContent])).toEqual([
      ['INSUFFICIENT_FUNDS', 'Insufficient funds2'],
      ['GENERIC_DECLINE', 'Generic decline1'],
    ]);
    expect(screen.getAllByTestId('overview-threeds-row').map((row) => `${row.dataset.status}:${row.lastElementChild?.textContent}`)).toEqual([
      'Y:3',
      'N:1',
      'R:0',
      'U:1',
    ]);
  });

  it('draws one bar a day of the busiest currency, with a text alternative and a table of every day', async () => {
    openDashboard(homeApi(), '/dashboard/home');
    const chart = await screen.findByTestId('overview-chart');
    const svg = within(chart).getByRole('img', { name: /Daily volume \(EUR\)/ });
    const bars = [...svg.querySelectorAll('rect')];
    expect(bars.map((bar) => bar.dataset.amount)).toEqual(['0', '0', '10000', '0', '0', '0', '140000']);
    // The tallest bar is the busiest day; the others are to scale.
    expect(Number(bars[6]?.getAttribute('height'))).toBeGreaterThan(Number(bars[2]?.getAttribute('height')) * 10);
    expect(svg.querySelector('desc')?.textContent).toMatch(/highest on 2026-11-26: €1,400\.00/);
    const rows = within(screen.getByTestId('overview-chart-table')).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(7);
    expect(rows[2]?.textContent).toBe('2026-11-221€100.00, $25.00');
  });

  it('draws another currency when it is chosen, the busiest first', async () => {
    openDashboard(homeApi(), '/dashboard/home');
    const select = (await screen.findByTestId('overview-chart-currency')) as HTMLSelectElement;
    expect(select.value).toBe('EUR');
    expect([...select.options].map((option) => option.value)).toEqual(['EUR', 'USD']);
    fireEvent.change(select, { target: { value: 'USD' } });
    const svg = within(screen.getByTestId('overview-chart')).getByRole('img', { name: /Daily volume \(USD\)/ });
    expect([...svg.querySelectorAll('rect')].map((bar) => bar.dataset.amount)).toEqual(['0', '0', '2500', '0', '0', '0', '0']);
  });

  it('asks for the period chosen, and says when nothing was created', async () => {
    const api = homeApi();
    openDashboard(api, '/dashboard/home');
    fireEvent.change(await screen.findByTestId('overview-period'), { target: { value: 'today' } });
    await waitFor(() => expect(screen.getByTestId('overview-success-rate').textContent).toMatch(/^—/));
    expect(api.last('GET /overview')?.query.get('period')).toBe('today');
    expect(screen.getByTestId('overview-volume').textContent).toBe('None');
    expect(screen.getByTestId('overview-chart').querySelector('desc')?.textContent).toBe('No captured volume in this period.');
  });
});
