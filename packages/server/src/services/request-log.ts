import type { Mode } from '@payframe/contract';
import { redactAnswerText, redactCardData, redactCardNumbers } from '../security/redact-card-data.ts';
import { insertRequestLogBatches } from '../storage/repositories/request-log.ts';
import { batchesOf } from '../storage/request-log-batch.ts';
import type { RequestLogEntryRow } from '../storage/schema.ts';
import type { Store } from './context.ts';

/** A /v2 request as answered, before it is made fit to store. */
export type AnsweredRequest = {
  id: string;
  accountId: string;
  mode: Mode;
  /** When it was received: the time in its id, under which the log files it. */
  at: number;
  method: string;
  /** The URL as sent, query included. */
  url: string;
  status: number;
  durationMs: number;
  keyId: string;
  idempotencyKey: string | undefined;
  query: unknown;
  body: unknown;
  /** The response body when it was text (a stream, such as the event stream, is not kept). */
  response: string | undefined;
};

/** A response is kept whole up to this size: a list page of 100 charges fits. */
const MAX_RESPONSE_CHARS = 256 * 1024;
/**
 * Entries wait at most this long in memory before they are written together. Short on purpose: an
 * entry (the answer's text with it) still queued when V8's young generation fills for the second
 * time since it was made is copied to the old generation, which is collected far less often; at a
 * few thousand answers a second, a longer wait moved the log's whole stream there, and the
 * server's memory grew by it until a full collection.
 */
const FLUSH_EVERY_MS = 5;
/** A queue this long is written at once rather than after the wait. */
const FLUSH_AT = 500;

/** The entry to store: card numbers, CVCs and once-shown secrets are gone from the URL, the parameters and the response. */
export function requestLogRow(entry: AnsweredRequest): RequestLogEntryRow {
  const question = entry.url.indexOf('?');
  const response = entry.response ?? '';
  return {
    id: entry.id,
    created_at: entry.at,
    method: entry.method,
    path: redactCardNumbers(question === -1 ? entry.url : entry.url.slice(0, question)).slice(0, 2048),
    status: entry.status,
    duration_ms: Math.round(entry.durationMs),
    key_id: entry.keyId,
    idempotency_key: entry.idempotencyKey === undefined ? null : redactCardNumbers(entry.idempotencyKey).slice(0, 255),
    request: parametersText(entry.query, entry.body),
    response: redactAnswerText(response.length > MAX_RESPONSE_CHARS ? response.slice(0, MAX_RESPONSE_CHARS) : response),
  };
}

/** What most reads send: no query parameter and no body (or no body parameter). */
const NOTHING_SENT = JSON.stringify({ query: {}, body: null });
const NO_PARAMETER_SENT = JSON.stringify({ query: {}, body: {} });

function parametersText(query: unknown, body: unknown): string {
  if (isEmpty(query)) {
    if (body === undefined || body === null) return NOTHING_SENT;
    if (isEmpty(body)) return NO_PARAMETER_SENT;
  }
  return JSON.stringify(redactCardData({ query: query ?? {}, body: body ?? null }));
}

/** No value, or an object (not a list) without a field. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object' || Array.isArray(value)) return false;
  for (const _name in value) return false;
  return true;
}

export type RequestLog = {
  /** Queues an answered request; it is written within a few milliseconds, with others. */
  add(entry: AnsweredRequest): void;
  /** Writes what is queued now. */
  flush(): Promise<void>;
  /** Writes what is queued and stops. */
  close(): Promise<void>;
};

/**
 * Keeps the request log off the request's path: entries queue in memory once the answer is sent and
 * are written every few milliseconds, a row for each run of an account's entries (request-log-batch.ts). What is
 * queued when the process dies (not when it stops) is lost: docs/dashboard.md says so.
 */
export function startRequestLog(store: Store, onError: (error: unknown) => void): RequestLog {
  let queue: AnsweredRequest[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    const taken = queue;
    queue = [];
    if (taken.length === 0) return writing;
    // One write at a time, in order: a slow one delays the next rather than piling up connections.
    writing = writing.then(async () => {
      try {
        const batches = batchesOf(taken.map((request) => ({ account_id: request.accountId, mode: request.mode, entry: requestLogRow(request) })));
        // Nothing waits for the log to be on disk: the next sync a request waits for covers it.
        await store.writeUnwaited((db) => insertRequestLogBatches(db, batches));
      } catch (error) {
        onError(error);
      }
    });
    return writing;
  };

  return {
    add(entry) {
      if (closed) return;
      queue.push(entry);
      if (queue.length >= FLUSH_AT) void flush();
      else timer ??= setTimeout(() => void flush(), FLUSH_EVERY_MS);
    },
    flush,
    async close() {
      await flush();
      closed = true;
    },
  };
}
