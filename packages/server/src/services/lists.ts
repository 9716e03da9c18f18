import {
  type ChargeList,
  type DashboardChargeList,
  type ListChargesQuery,
  type ListEventsQuery,
  type ListRefundsQuery,
  PayframeError,
  type RefundList,
} from '@payframe/contract';
import { expiredIfCreatedBy, settle } from '../domain/charge-lifecycle.ts';
import type { PageWindow } from '../storage/repositories/keyset.ts';
import {
  type ChargeMatch,
  type CreatedRange,
  listChargeRows,
  listChargeRowsMatchingAny,
  listEventBodies,
  listRefundRows,
  positionOf,
} from '../storage/repositories/lists.ts';
import { tokensByIds } from '../storage/repositories/tokens.ts';
import { chargeView, refundView } from './api-resources.ts';
import { toState, withState } from './charges.ts';
import type { Caller, Db, ServiceDeps } from './context.ts';

type Cursors = { limit: number; starting_after?: string | undefined; ending_before?: string | undefined };

const ITEM = { charges: 'charge', refunds: 'refund', events: 'event' } as const;

/** The window a list's cursor parameters ask for; a cursor that is not the caller's is a 400 on its parameter. */
async function windowOf(db: Db, caller: Caller, list: 'charges' | 'refunds' | 'events', query: Cursors): Promise<PageWindow> {
  const fetch = query.limit + 1;
  const [parameter, id] = query.starting_after !== undefined ? ['starting_after', query.starting_after] : ['ending_before', query.ending_before];
  if (id === undefined) return { cursor: null, fetch };
  const position = await positionOf(db, caller, list, id);
  if (!position) {
    // The id is not repeated (docs/api.md "Limits"): the parameter names it.
    throw new PayframeError('RESOURCE_MISSING', `No such ${ITEM[list]}.`, { parameter, status: 400 });
  }
  return { cursor: { direction: parameter === 'starting_after' ? 'older' : 'newer', ...position }, fetch };
}

/** A `charge` filter names a charge of the caller's account and mode: any other is an unknown filter value, a 400 on it. */
async function requireKnownCharge(db: Db, caller: Caller, chargeId: string | undefined): Promise<void> {
  if (chargeId !== undefined && !(await positionOf(db, caller, 'charges', chargeId))) {
    throw new PayframeError('PARAMETER_INVALID', 'No such charge.', { parameter: 'charge' });
  }
}

/** The page, newest first, and whether more remain in the direction it was read. */
function pageOf<T>(rows: T[], window: PageWindow): { data: T[]; has_more: boolean } {
  const data = rows.slice(0, window.fetch - 1);
  if (window.cursor?.direction === 'newer') data.reverse();
  return { data, has_more: rows.length >= window.fetch };
}

/** Epoch seconds of the query to the milliseconds rows are stored in. */
function createdMs(created: { gte?: number | undefined; lt?: number | undefined } | undefined): CreatedRange | undefined {
  return created && { gte: created.gte === undefined ? undefined : created.gte * 1000, lt: created.lt === undefined ? undefined : created.lt * 1000 };
}

/** With `matches` (a dashboard search), only the charges that match at least one of them, and the query's filters. */
export async function listCharges(db: Db, deps: ServiceDeps, caller: Caller, query: ListChargesQuery, matches?: ChargeMatch[]): Promise<ChargeList> {
  const { has_more, data } = await chargePage(db, deps, caller, query, matches);
  return { type: 'list', url: '/v2/charges', has_more, data: data.map(({ charge }) => charge) };
}

/** The dashboard's page of charges: each with the shopper's e-mail, as given with the token. */
export async function listDashboardCharges(
  db: Db,
  deps: ServiceDeps,
  caller: Caller,
  query: ListChargesQuery,
  matches?: ChargeMatch[],
): Promise<DashboardChargeList> {
  const { has_more, data } = await chargePage(db, deps, caller, query, matches);
  return { type: 'list', url: '/v2/charges', has_more, data: data.map(({ charge, email }) => ({ ...charge, email })) };
}

async function chargePage(db: Db, deps: ServiceDeps, caller: Caller, query: ListChargesQuery, matches?: ChargeMatch[]) {
  const window = await windowOf(db, caller, 'charges', query);
  const filters = { status: query.status, created: createdMs(query.created), txnReference: query.txn_reference, email: query.email, last4: query.last4 };
  const expiredBy = expiredIfCreatedBy(caller.now);
  const rows =
    matches === undefined
      ? await listChargeRows(db, caller, filters, window, expiredBy)
      : await listChargeRowsMatchingAny(db, caller, filters, matches, window, expiredBy);
  const tokens = await tokensByIds(db, [...new Set(rows.map((row) => row.token_id))]);
  const { data, has_more } = pageOf(rows, window);
  return {
    has_more,
    data: data.map((row) => {
      const token = tokens.get(row.token_id)!;
      return { charge: chargeView(withState(row, settle(toState(row), caller.now)), token, deps), email: token.shopper_email };
    }),
  };
}

export async function listRefunds(db: Db, caller: Caller, query: ListRefundsQuery): Promise<RefundList> {
  await requireKnownCharge(db, caller, query.charge);
  const window = await windowOf(db, caller, 'refunds', query);
  const { data, has_more } = pageOf(await listRefundRows(db, caller, query.charge, window), window);
  return { type: 'list', url: '/v2/refunds', has_more, data: data.map(refundView) };
}

/** The list's JSON, with each event's stored bytes as they are: every reader of an event sends the same text. */
export async function listEvents(db: Db, caller: Caller, query: ListEventsQuery): Promise<string> {
  await requireKnownCharge(db, caller, query.charge);
  const window = await windowOf(db, caller, 'events', query);
  const filters = { name: query.name, chargeId: query.charge, created: createdMs(query.created) };
  const { data, has_more } = pageOf(await listEventBodies(db, caller, filters, window), window);
  return `{"type":"list","url":"/v2/events","has_more":${has_more},"data":[${data.join(',')}]}`;
}
