import type { Mode } from '@payframe/contract';
import type { RequestLogBatchesTable, RequestLogEntryRow } from './schema.ts';

/**
 * How the request log stores its entries: a batch row holds a run of one account's and mode's
 * entries as one text, not a row each. A row each was four b-tree inserts and a statement per
 * request, the most of what the log cost a GET; a batch is one insert, whose text SQLite writes
 * as a chain of pages.
 *
 * A run spans at most RUN_SPAN_MS of receipt times (`created_at`, the time in the entry's id):
 * reads rely on it to bound their scans (an entry received at T is in a batch that began within
 * RUN_SPAN_MS before T). A request that ran longer than that (the event stream) lands in a run
 * apart from the requests it ended with, and a queue that waited behind a slow write is split.
 */
export const RUN_SPAN_MS = 1_000;

/**
 * A run also ends past this many characters of parameters and responses: a list page reads a run
 * whole, and a second of large answers (lists of 100 charges, 256 KiB each at most) would be tens of
 * megabytes.
 */
export const RUN_MAX_CHARS = 1_000_000;

/**
 * The text of a run: per entry, one line of JSON with its short fields and the lengths of its
 * request and response texts, then those two texts as they are. The long texts are JSON already:
 * quoting them again into a JSON string cost more than every other step of writing them.
 */
export function encodeEntries(entries: readonly RequestLogEntryRow[]): string {
  let text = '';
  for (const entry of entries) {
    const head = [
      entry.id,
      entry.created_at,
      entry.method,
      entry.path,
      entry.status,
      entry.duration_ms,
      entry.key_id,
      entry.idempotency_key,
      entry.request.length,
      entry.response.length,
    ];
    text += `${JSON.stringify(head)}\n${entry.request}${entry.response}`;
  }
  return text;
}

type Head = [string, number, string, string, number, number, string | null, string | null, number, number];

/** The entries of a run's text, in the order they were written. */
export function decodeEntries(text: string): RequestLogEntryRow[] {
  const entries: RequestLogEntryRow[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    if (end === -1) throw new Error('request log batch: an entry without its head line');
    const [id, created_at, method, path, status, duration_ms, key_id, idempotency_key, requestLength, responseLength] = JSON.parse(text.slice(at, end)) as Head;
    const requestEnd = end + 1 + requestLength;
    const responseEnd = requestEnd + responseLength;
    if (responseEnd > text.length) throw new Error('request log batch: an entry cut short');
    entries.push({
      id,
      created_at,
      method,
      path,
      status,
      duration_ms,
      key_id,
      idempotency_key,
      request: text.slice(end + 1, requestEnd),
      response: text.slice(requestEnd, responseEnd),
    });
    at = responseEnd;
  }
  return entries;
}

/** The bit of an HTTP status's class (2 for 2xx): a batch keeps the bits of its entries, so a filter skips batches without one. */
export function statusClassBit(status: number): number {
  return 1 << Math.trunc(status / 100);
}

/** The entries in runs of at most RUN_SPAN_MS of receipt times and about RUN_MAX_CHARS, each run oldest first. */
export function runsOf(entries: readonly RequestLogEntryRow[]): RequestLogEntryRow[][] {
  const sorted = [...entries].sort(oldestFirst);
  const runs: RequestLogEntryRow[][] = [];
  let run: RequestLogEntryRow[] = [];
  let chars = 0;
  for (const entry of sorted) {
    const size = entry.request.length + entry.response.length;
    if (run.length > 0 && (entry.created_at - run[0]!.created_at > RUN_SPAN_MS || chars + size > RUN_MAX_CHARS)) {
      runs.push(run);
      run = [];
      chars = 0;
    }
    run.push(entry);
    chars += size;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** What a batch row holds of a run (from runsOf), but for its account and mode. */
export function batchOf(run: readonly RequestLogEntryRow[]): Pick<RequestLogBatchesTable, 'first_at' | 'last_at' | 'statuses' | 'entries'> {
  let statuses = 0;
  for (const entry of run) statuses |= statusClassBit(entry.status);
  return { first_at: run[0]!.created_at, last_at: run[run.length - 1]!.created_at, statuses, entries: encodeEntries(run) };
}

/** A batch row as inserted. */
export type NewRequestLogBatch = Omit<RequestLogBatchesTable, 'id'>;

/** An entry with the account and mode it is kept for. */
export type OwnedEntry = { account_id: string; mode: Mode; entry: RequestLogEntryRow };

/** Entries of any accounts and modes as batch rows: a row for each run of one account's and mode's entries. */
export function batchesOf(owned: readonly OwnedEntry[]): NewRequestLogBatch[] {
  const owners = new Map<string, { account_id: string; mode: Mode; entries: RequestLogEntryRow[] }>();
  for (const { account_id, mode, entry } of owned) {
    const key = `${account_id} ${mode}`;
    const entries = owners.get(key)?.entries;
    if (entries) entries.push(entry);
    else owners.set(key, { account_id, mode, entries: [entry] });
  }
  const batches: NewRequestLogBatch[] = [];
  for (const { account_id, mode, entries } of owners.values()) for (const run of runsOf(entries)) batches.push({ account_id, mode, ...batchOf(run) });
  return batches;
}

type Position = Pick<RequestLogEntryRow, 'created_at' | 'id'>;

/** By receipt time, then id: the order of the request log's lists, the other way round. */
export function oldestFirst(a: Position, b: Position): number {
  return a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
