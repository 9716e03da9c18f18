import type { DashboardOverview } from '@payframe/contract';
import { useState } from 'preact/hooks';
import { money } from '../format.ts';

const WIDTH = 640;
const HEIGHT = 200;
const PAD = { top: 10, bottom: 24, left: 4, right: 4 };

type Day = DashboardOverview['days'][number];

/** The currency the chart draws first: the one with the most volume (ties by code), as amounts of several cannot share an axis. */
export function chartCurrency(overview: DashboardOverview): string | undefined {
  return [...overview.volume].sort((a, b) => b.amount - a.amount || a.currency.localeCompare(b.currency))[0]?.currency;
}

const amountOn = (day: Day, currency: string) => day.volume.find((entry) => entry.currency === currency)?.amount ?? 0;

/**
 * Daily captured volume as bars (an SVG with a title and description for screen readers), and the
 * same figures as a table, every currency included, for whoever prefers numbers to a picture. With
 * volume in several currencies, a select chooses which one the bars draw.
 */
export function OverviewChart({ overview }: { overview: DashboardOverview }) {
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const currencies = overview.volume.map((entry) => entry.currency).sort();
  const currency = chosen !== undefined && currencies.includes(chosen) ? chosen : chartCurrency(overview);
  const days = overview.days;
  const values = days.map((day) => (currency ? amountOn(day, currency) : 0));
  const max = Math.max(1, ...values);
  const slot = (WIDTH - PAD.left - PAD.right) / Math.max(1, days.length);
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const busiest = values.indexOf(Math.max(...values));
  const summary =
    currency === undefined
      ? 'No captured volume in this period.'
      : `Captured ${currency} volume per day from ${overview.from} to ${overview.to}; highest on ${days[busiest]?.date}: ${money(values[busiest] ?? 0, currency)}.`;
  const labelEvery = Math.ceil(days.length / 8);
  return (
    <figure class="chart" data-testid="overview-chart">
      {currencies.length > 1 && (
        <p class="chart-currency">
          <label for="overview-chart-currency">Chart currency</label>{' '}
          <select
            id="overview-chart-currency"
            data-testid="overview-chart-currency"
            value={currency}
            onChange={(event) => setChosen(event.currentTarget.value)}
          >
            {currencies.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </p>
      )}
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="overview-chart-title overview-chart-desc" preserveAspectRatio="none">
        <title id="overview-chart-title">{`Daily volume${currency ? ` (${currency})` : ''}`}</title>
        <desc id="overview-chart-desc">{summary}</desc>
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={HEIGHT - PAD.bottom} y2={HEIGHT - PAD.bottom} class="chart-axis" />
        {values.map((value, i) => {
          const height = (value / max) * plotHeight;
          const day = days[i];
          return (
            <g key={day?.date}>
              <rect
                class="chart-bar"
                x={PAD.left + i * slot + slot * 0.15}
                y={HEIGHT - PAD.bottom - height}
                width={slot * 0.7}
                height={height}
                data-date={day?.date}
                data-amount={value}
              />
              {i % labelEvery === 0 && (
                <text x={PAD.left + i * slot + slot / 2} y={HEIGHT - 6} text-anchor="middle" class="chart-label">
                  {day?.date.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>{summary}</figcaption>
      <details>
        <summary>Daily figures as a table</summary>
        <div class="table">
          <table data-testid="overview-chart-table">
            <caption class="sr-only">Captured volume and successful charges per day</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Successful charges</th>
                <th scope="col">Volume</th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.date}>
                  <th scope="row">{day.date}</th>
                  <td>{day.succeeded}</td>
                  <td>{day.volume.length === 0 ? '—' : day.volume.map((entry) => money(entry.amount, entry.currency)).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
