import type { Charge, EventName, Refund } from '@payframe/contract';

/**
 * The home page's figures are sums of daily counters, one row per account, mode, UTC day, metric,
 * currency and shard, added to in the transaction of each change (services/events.ts). These pure
 * rules say which counters a change adds to.
 */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** Concurrent writes of one account spread over this many rows per counter, so they seldom wait on one row's lock. */
export const OVERVIEW_SHARDS = 8;

export type OverviewMetric = 'created' | 'captured' | 'refunded' | `declined:${string}` | `threeds:${string}`;

/** What one change adds to one counter: `quantity` events worth `amount` minor units. */
export type OverviewDelta = { metric: OverviewMetric; currency: string; quantity: number; amount: number };

/** The counters of one change: all of one account, mode, day and shard. */
export type OverviewWrite = { accountId: string; mode: Charge['mode']; day: number; shard: number; deltas: OverviewDelta[] };

/** The UTC day (days since 1970-01-01) of a time in epoch milliseconds. */
export function utcDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** The shard of an object's counters, from its id: a charge's changes always add to the same rows. */
export function shardOf(id: string): number {
  let sum = 0;
  for (let i = Math.max(0, id.length - 4); i < id.length; i++) sum += id.charCodeAt(i);
  return sum % OVERVIEW_SHARDS;
}

/**
 * The counters a recorded change adds to: a creation, a capture (of what was captured, part or
 * whole), a refund of captured money (releasing an uncaptured charge is no refund), and a 3-D
 * Secure outcome by its `transStatus`. Other changes add nothing.
 */
export function changeDeltas(name: EventName, charge: Charge, refund?: Refund): OverviewDelta[] {
  const currency = charge.currency;
  switch (name) {
    case 'charge.created':
      return [{ metric: 'created', currency, quantity: 1, amount: charge.amount }];
    case 'charge.captured':
      return [{ metric: 'captured', currency, quantity: 1, amount: charge.amount_captured }];
    case 'charge.refunded':
      return refund && charge.amount_captured > 0 ? [{ metric: 'refunded', currency, quantity: 1, amount: refund.amount }] : [];
    case 'charge.authentication_succeeded':
    case 'charge.authentication_failed':
    case 'charge.authentication_unavailable': {
      const status = charge.threedSecure.transStatus;
      return status ? [{ metric: `threeds:${status}`, currency, quantity: 1, amount: charge.amount }] : [];
    }
    default:
      return [];
  }
}

/** A card the issuer declined when charged: by its reason when one was given, else by its code. */
export function declineDelta(reason: string, currency: string, amount: number): OverviewDelta {
  return { metric: `declined:${reason}`, currency, quantity: 1, amount };
}

/** Adds `deltas` into `into` by metric and currency (the seed's bulk path). */
export function addDeltas(into: Map<string, OverviewDelta>, deltas: readonly OverviewDelta[]): void {
  for (const delta of deltas) {
    const key = `${delta.metric}\u0000${delta.currency}`;
    const held = into.get(key);
    if (held) {
      held.quantity += delta.quantity;
      held.amount += delta.amount;
    } else into.set(key, { ...delta });
  }
}
