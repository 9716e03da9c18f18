import { type DashboardRequestLogQuery, PayframeError, type RequestLogDetail, type RequestLogEntry, type RequestLogList } from '@payframe/contract';
import type { PageWindow } from '../storage/repositories/keyset.ts';
import { findRequestLog, listRequestLog, type RequestLogRow, requestLogPosition } from '../storage/repositories/request-log.ts';
import type { Caller, Db } from './context.ts';

function entryView(row: RequestLogRow): RequestLogEntry {
  return {
    type: 'request_log_entry',
    id: row.id,
    created: row.created_at,
    method: row.method,
    path: row.path,
    status: row.status,
    duration_ms: row.duration_ms,
    key_hint: row.key_hint,
    idempotency_key: row.idempotency_key,
  };
}

/** A page of the caller's request log, newest first, filtered by status class and path prefix. */
export async function listRequestLogEntries(db: Db, caller: Caller, query: Omit<DashboardRequestLogQuery, 'mode'>): Promise<RequestLogList> {
  const fetch = query.limit + 1;
  const [parameter, id] = query.starting_after !== undefined ? ['starting_after', query.starting_after] : ['ending_before', query.ending_before];
  let window: PageWindow = { cursor: null, fetch };
  if (id !== undefined) {
    const createdAt = await requestLogPosition(db, caller, id);
    if (createdAt === undefined) throw new PayframeError('RESOURCE_MISSING', 'No such request.', { parameter, status: 400 });
    window = { cursor: { direction: parameter === 'starting_after' ? 'older' : 'newer', createdAt, tie: id }, fetch };
  }
  const rows = await listRequestLog(db, caller, { status: query.status, path: query.path }, window);
  const data = rows.slice(0, fetch - 1);
  if (window.cursor?.direction === 'newer') data.reverse();
  return { type: 'list', url: '/dashboard/api/request_log', has_more: rows.length >= fetch, data: data.map(entryView) };
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
  const row = await findRequestLog(db, caller, id);
  if (!row) throw new PayframeError('RESOURCE_MISSING', 'No such request.', { parameter: 'id' });
  const request = parsed(row.request) as { query?: unknown; body?: unknown };
  return { ...entryView(row), request: { query: request.query ?? {}, body: request.body ?? null }, response: parsed(row.response) };
}
