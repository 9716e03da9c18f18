import {
  type DashboardRequestLogQuery,
  PayframeError,
  type RequestLogDetail,
  type RequestLogEntry,
  type RequestLogList,
  type RequestLogStatusClass,
} from '@payframe/contract';
import { requestIdTime } from '../ids.ts';
import { keyHints } from '../storage/repositories/api-keys.ts';
import type { Owner } from '../storage/repositories/owned.ts';
import { type BatchFilter, type BatchPosition, batchesAt, newerBatches, olderBatches, type StoredBatch } from '../storage/repositories/request-log.ts';
import { decodeEntries, oldestFirst, statusClassBit } from '../storage/request-log-batch.ts';
import type { RequestLogEntryRow } from '../storage/schema.ts';
import type { Caller, Db } from './context.ts';

/**
 * Batches read by a page's first query, doubled by each next one: under load one run holds a page
 * and more, while on a quiet server each request may be a run of its own.
 */
const FIRST_BATCHES = 4;
const MOST_BATCHES = 64;

type Filter = { status?: RequestLogStatusClass | undefined; path?: string | undefined };
/** The entry a page starts beyond, by where it sits. */
type Cursor = { direction: 'older' | 'newer'; created_at: number; id: string };

function entryView(entry: RequestLogEntryRow, hints: ReadonlyMap<string, string>): RequestLogEntry {
  return {
    type: 'request_log_entry',
    id: entry.id,
    created: entry.created_at,
    method: entry.method,
    path: entry.path,
    status: entry.status,
    duration_ms: entry.duration_ms,
    key_hint: (entry.key_id !== null && hints.get(entry.key_id)) || null,
    idempotency_key: entry.idempotency_key,
  };
}

/** A page of the caller's request log, newest first, filtered by status class and path prefix. */
export async function listRequestLogEntries(db: Db, caller: Caller, query: Omit<DashboardRequestLogQuery, 'mode'>): Promise<RequestLogList> {
  const fetch = query.limit + 1;
  const [parameter, id] = query.starting_after !== undefined ? ['starting_after', query.starting_after] : ['ending_before', query.ending_before];
  let cursor: Cursor | null = null;
  if (id !== undefined) {
    const entry = await findEntry(db, caller, id);
    if (!entry) throw new PayframeError('RESOURCE_MISSING', 'No such request.', { parameter, status: 400 });
    cursor = { direction: parameter === 'starting_after' ? 'older' : 'newer', created_at: entry.created_at, id };
  }
  const filter = { status: query.status, path: query.path };
  const entries = await pageOfEntries(db, caller, filter, cursor, fetch);
  const data = entries.slice(0, fetch - 1);
  if (cursor?.direction === 'newer') data.reverse();
  const hints = await keyHints(
    db,
    data.map((entry) => entry.key_id),
  );
  return { type: 'list', url: '/dashboard/api/request_log', has_more: entries.length >= fetch, data: data.map((entry) => entryView(entry, hints)) };
}

/**
 * Up to `fetch` entries beyond the cursor in the page's order: newest first, or oldest first towards
 * the newest (`newer`, turned round by the caller). Batches come in that order by their last entry
 * (by their first, towards the newest): once a batch ending at L has been read, no batch still
 * unread holds an entry received after L, so the entries found after L are in their final order.
 */
async function pageOfEntries(db: Db, owner: Owner, filter: Filter, cursor: Cursor | null, fetch: number): Promise<RequestLogEntryRow[]> {
  // +1 orders oldest first (towards the newest), -1 newest first.
  const sign = cursor?.direction === 'newer' ? 1 : -1;
  const read = (after: BatchPosition | null, chunk: number) =>
    cursor?.direction === 'newer'
      ? newerBatches(db, owner, cursor.created_at, after, batchFilter(filter), chunk)
      : olderBatches(db, owner, cursor?.created_at ?? null, after, batchFilter(filter), chunk);
  const found: RequestLogEntryRow[] = [];
  let after: BatchPosition | null = null;
  for (let chunk = FIRST_BATCHES; ; chunk = Math.min(chunk * 2, MOST_BATCHES)) {
    const batches = await read(after, chunk);
    collect(batches, found, (entry) => matches(entry, filter) && (!cursor || sign * oldestFirst(entry, cursor) > 0));
    // An entry past the page now can only be pushed further by what is read next.
    found.sort((a, b) => sign * oldestFirst(a, b)).splice(fetch);
    const last = batches.at(-1);
    if (!last || batches.length < chunk) return found;
    const reached = sign > 0 ? last.first_at : last.last_at;
    after = { at: reached, id: last.id };
    if (countWhile(found, (entry) => sign * (reached - entry.created_at) > 0) >= fetch) return found;
  }
}

function collect(batches: readonly StoredBatch[], into: RequestLogEntryRow[], keep: (entry: RequestLogEntryRow) => boolean): void {
  for (const batch of batches) for (const entry of decodeEntries(batch.entries)) if (keep(entry)) into.push(entry);
}

function countWhile<T>(items: readonly T[], holds: (item: T) => boolean): number {
  let count = 0;
  while (count < items.length && holds(items[count]!)) count++;
  return count;
}

function matches(entry: RequestLogEntryRow, filter: Filter): boolean {
  if (filter.status !== undefined && statusClassBit(entry.status) !== statusBits(filter.status)) return false;
  return filter.path === undefined || entry.path.startsWith(filter.path);
}

function statusBits(status: RequestLogStatusClass): number {
  return statusClassBit(Number(status[0]) * 100);
}

/** What the database can rule out: the status class by the batch's bits, the path by its text holding the path quoted. */
function batchFilter(filter: Filter): BatchFilter {
  return {
    statuses: filter.status === undefined ? null : statusBits(filter.status),
    text: filter.path === undefined ? null : `"${JSON.stringify(filter.path).slice(1, -1)}`,
  };
}

/** The caller's entry with this id: it is filed under the time in its id. */
async function findEntry(db: Db, owner: Owner, id: string): Promise<RequestLogEntryRow | undefined> {
  const at = requestIdTime(id);
  if (at === undefined) return undefined;
  for (const batch of await batchesAt(db, owner, at)) {
    if (!batch.entries.includes(id)) continue;
    const entry = decodeEntries(batch.entries).find((candidate) => candidate.id === id);
    if (entry) return entry;
  }
  return undefined;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One request with its stored parameters and response. */
export async function requestLogDetail(db: Db, caller: Caller, id: string): Promise<RequestLogDetail> {
  const entry = await findEntry(db, caller, id);
  if (!entry) throw new PayframeError('RESOURCE_MISSING', 'No such request.', { parameter: 'id' });
  const hints = await keyHints(db, [entry.key_id]);
  const request = parsed(entry.request) as { query?: unknown; body?: unknown };
  return { ...entryView(entry, hints), request: { query: request.query ?? {}, body: request.body ?? null }, response: parsed(entry.response) };
}
