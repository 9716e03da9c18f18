import { randomUUID } from 'node:crypto';
import { ConnectionError, errorFromResponse } from './errors.ts';

export type RequestOptions = {
  /** Replays of one POST with the same key apply it once; generated per call when omitted. */
  idempotencyKey?: string;
};

export type ClientOptions = {
  /** Where the API is, e.g. `http://127.0.0.1:4000`; `/v2` is added. */
  apiBase: string;
  /** Retries after a network failure, 409, 429 or 5xx (default 2). */
  maxNetworkRetries?: number;
  /** Milliseconds one attempt may take before it counts as a network failure (default 30 000). */
  timeout?: number;
};

type Request = { method: 'GET' | 'POST' | 'DELETE'; path: string; query?: object; body?: object; options?: RequestOptions };

const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 5_000;
/** A Retry-After longer than this is the server asking the client to come back much later: give up instead. */
const MAX_RETRY_AFTER_MS = 60_000;

export class HttpClient {
  readonly #secretKey: string;
  readonly #apiBase: string;
  readonly #maxRetries: number;
  readonly #timeout: number;

  constructor(secretKey: string, options: ClientOptions) {
    if (typeof secretKey !== 'string' || secretKey === '') throw new TypeError('Payframe needs a secret key');
    if (!options?.apiBase) throw new TypeError('Payframe needs options.apiBase, e.g. http://127.0.0.1:4000');
    this.#secretKey = secretKey;
    this.#apiBase = options.apiBase.replace(/\/+$/, '');
    this.#maxRetries = options.maxNetworkRetries ?? 2;
    this.#timeout = options.timeout ?? 30_000;
  }

  async request<T>({ method, path, query, body, options }: Request): Promise<T> {
    const url = `${this.#apiBase}/v2${path}${query ? queryString(query) : ''}`;
    const headers: Record<string, string> = { 'x-api-key': this.#secretKey, accept: 'application/json' };
    if (method === 'POST') {
      headers['content-type'] = 'application/json';
      // One key for every attempt: a retried POST is applied once.
      headers['idempotency-key'] = options?.idempotencyKey ?? randomUUID();
    }
    const init = { method, headers, ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}) };

    for (let attempt = 0; ; attempt += 1) {
      const retriesLeft = attempt < this.#maxRetries;
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, { ...init, signal: AbortSignal.timeout(this.#timeout) });
        text = await response.text();
      } catch (error) {
        if (retriesLeft) {
          await sleep(backoff(attempt));
          continue;
        }
        throw new ConnectionError(`Could not reach the Payframe API at ${this.#apiBase}: ${describe(error)}`, { cause: error });
      }
      const parsed = parseJson(text);
      if (response.ok && parsed !== undefined) return parsed as T;
      const wait = retryDelay(response, attempt);
      if (retriesLeft && wait !== undefined) {
        await sleep(wait);
        continue;
      }
      throw errorFromResponse(response.status, parsed, response.headers);
    }
  }
}

/** How long to wait before retrying this answer, or undefined when it must not be retried. */
function retryDelay(response: Response, attempt: number): number | undefined {
  const { status } = response;
  if (status !== 409 && status !== 429 && status < 500) return undefined;
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter !== null && /^\d+$/.test(retryAfter)) {
    const ms = Number(retryAfter) * 1000;
    return ms <= MAX_RETRY_AFTER_MS ? ms : undefined;
  }
  return backoff(attempt);
}

/** Exponential, with jitter so that many clients do not retry in step. */
function backoff(attempt: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/** Bracketed names, as the API reads them: `created[gte]=…`, `events[]=…`. */
export function queryString(params: object): string {
  const search = new URLSearchParams();
  const add = (name: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) for (const item of value) add(`${name}[]`, item);
    else if (typeof value === 'object') for (const [key, inner] of Object.entries(value)) add(`${name}[${key}]`, inner);
    else search.append(name, String(value));
  };
  for (const [name, value] of Object.entries(params)) add(name, value);
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** A path segment from an id: ids never contain `/`, but nothing the caller passes may change the route. */
export function segment(id: string): string {
  return encodeURIComponent(id);
}
