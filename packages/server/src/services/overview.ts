import { type CurrencyAmount, type DashboardOverview, OVERVIEW_PERIOD_DAYS, type OverviewPeriod, TRANS_STATUSES } from '@payframe/contract';
import { DAY_MS, utcDay } from '../domain/overview.ts';
import { readOverview } from '../storage/repositories/overview.ts';
import type { Caller, Db } from './context.ts';

const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Sums by currency, in currency order. */
function byCurrency(into: Map<string, number>): CurrencyAmount[] {
  return [...into].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ currency, amount }));
}

function add(into: Map<string, number>, key: string, amount: number): void {
  into.set(key, (into.get(key) ?? 0) + amount);
}

/** The home page's figures for the caller's mode over `period`, from the daily counters alone. */
export async function overview(db: Db, caller: Caller, period: OverviewPeriod): Promise<DashboardOverview> {
  const last = utcDay(caller.now);
  const first = last - OVERVIEW_PERIOD_DAYS[period] + 1;
  const rows = await readOverview(db, caller, first, last);

  const volume = new Map<string, number>();
  const refunded = new Map<string, number>();
  const declines = new Map<string, number>();
  const threeds = new Map<string, number>();
  const days = Array.from({ length: last - first + 1 }, () => ({ succeeded: 0, volume: new Map<string, number>() }));
  let created = 0;
  let succeeded = 0;
  let refunds = 0;
  for (const row of rows) {
    if (row.metric === 'created') created += row.quantity;
    else if (row.metric === 'captured') {
      succeeded += row.quantity;
      add(volume, row.currency, row.amount);
      const day = days[row.day - first];
      if (day) {
        day.succeeded += row.quantity;
        add(day.volume, row.currency, row.amount);
      }
    } else if (row.metric === 'refunded') {
      refunds += row.quantity;
      add(refunded, row.currency, row.amount);
    } else if (row.metric.startsWith('declined:')) add(declines, row.metric.slice('declined:'.length), row.quantity);
    else if (row.metric.startsWith('threeds:')) add(threeds, row.metric.slice('threeds:'.length), row.quantity);
  }
  return {
    mode: caller.mode,
    period,
    from: isoDay(first),
    to: isoDay(last),
    volume: byCurrency(volume),
    created,
    succeeded,
    success_rate: created === 0 ? null : succeeded / created,
    refunds: { count: refunds, amount: byCurrency(refunded) },
    days: days.map((day, i) => ({ date: isoDay(first + i), succeeded: day.succeeded, volume: byCurrency(day.volume) })),
    declines: [...declines].sort(([ra, a], [rb, b]) => b - a || ra.localeCompare(rb)).map(([reason, count]) => ({ reason, count })),
    threeds: TRANS_STATUSES.map((status) => ({ status, count: threeds.get(status) ?? 0 })),
  };
}
