import { type CurrencyAmount, type DashboardOverview, OVERVIEW_PERIODS, type OverviewPeriod } from '@payframe/contract';
import { useState } from 'preact/hooks';
import { ErrorMessage } from '../components/error-message.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { useDashboard } from '../context.ts';
import '../insights.css';
import { label, money, percent } from '../format.ts';
import { useResource } from '../use-resource.ts';
import { OverviewChart } from './overview-chart.tsx';

const PERIOD_LABEL: Record<OverviewPeriod, string> = { today: 'Today', '7d': 'Last 7 days', '30d': 'Last 30 days' };
const THREEDS_LABEL = { Y: 'Authenticated (Y)', N: 'Failed (N)', R: 'Rejected (R)', U: 'Unavailable (U)' } as const;

function Amounts({ amounts }: { amounts: CurrencyAmount[] }) {
  if (amounts.length === 0) return <span class="none">None</span>;
  return (
    <ul class="amounts">
      {amounts.map((entry) => (
        <li key={entry.currency} data-currency={entry.currency} data-amount={entry.amount}>
          {money(entry.amount, entry.currency)}
        </li>
      ))}
    </ul>
  );
}

/** How the business did over a period, in the current mode: the figures of the daily counters. */
export function HomePage() {
  const { client, mode } = useDashboard();
  const [period, setPeriod] = useState<OverviewPeriod>('7d');
  const overview = useResource(() => client.getOverview(mode, period), [mode, period]);
  const data = overview.data;

  return (
    <>
      <PageTitle title="Home">Home</PageTitle>
      <div class="filters">
        <label for="overview-period">Period</label>
        <select id="overview-period" data-testid="overview-period" value={period} onChange={(event) => setPeriod(event.currentTarget.value as OverviewPeriod)}>
          {OVERVIEW_PERIODS.map((value) => (
            <option key={value} value={value}>
              {PERIOD_LABEL[value]}
            </option>
          ))}
        </select>
        {data && (
          <p class="help">
            {data.from === data.to ? data.to : `${data.from} to ${data.to}`} (UTC days{mode === 'test' ? ', on the test clock' : ''})
          </p>
        )}
      </div>
      <ErrorMessage error={overview.error} />
      {data && <Figures data={data} />}
    </>
  );
}

function Figures({ data }: { data: DashboardOverview }) {
  return (
    <>
      <dl class="tiles">
        <div class="tile">
          <dt>Volume</dt>
          <dd data-testid="overview-volume">
            <Amounts amounts={data.volume} />
          </dd>
        </div>
        <div class="tile">
          <dt>Successful charges</dt>
          <dd data-testid="overview-count" data-count={data.succeeded}>
            {data.succeeded}
          </dd>
        </div>
        <div class="tile">
          <dt>Success rate</dt>
          <dd data-testid="overview-success-rate" data-rate={data.success_rate ?? ''}>
            {data.success_rate === null ? '—' : percent(data.success_rate)}
            <small class="help">
              {' '}
              {data.succeeded} captured of {data.created} created
            </small>
          </dd>
        </div>
        <div class="tile">
          <dt>Refunds</dt>
          <dd data-testid="overview-refunds" data-count={data.refunds.count}>
            {data.refunds.count} {data.refunds.count === 1 ? 'refund' : 'refunds'}
            <Amounts amounts={data.refunds.amount} />
          </dd>
        </div>
      </dl>

      <h2>Daily volume</h2>
      <OverviewChart overview={data} />

      <div class="breakdowns">
        <section aria-labelledby="declines-title">
          <h2 id="declines-title">Declines</h2>
          {data.declines.length === 0 ? (
            <p data-testid="overview-declines">No declined cards in this period.</p>
          ) : (
            <table data-testid="overview-declines">
              <caption class="sr-only">Declined cards by reason</caption>
              <thead>
                <tr>
                  <th scope="col">Reason</th>
                  <th scope="col">Cards</th>
                </tr>
              </thead>
              <tbody>
                {data.declines.map((decline) => (
                  <tr key={decline.reason} data-testid="overview-decline" data-reason={decline.reason}>
                    <th scope="row">{label(decline.reason)}</th>
                    <td>{decline.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section aria-labelledby="threeds-title">
          <h2 id="threeds-title">3-D Secure outcomes</h2>
          <table data-testid="overview-threeds">
            <caption class="sr-only">Settled 3-D Secure authentications by outcome</caption>
            <thead>
              <tr>
                <th scope="col">Outcome</th>
                <th scope="col">Charges</th>
              </tr>
            </thead>
            <tbody>
              {data.threeds.map((row) => (
                <tr key={row.status} data-testid="overview-threeds-row" data-status={row.status}>
                  <th scope="row">{THREEDS_LABEL[row.status]}</th>
                  <td>{row.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>
    </>
  );
}
