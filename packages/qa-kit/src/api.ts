/** Where the kit's API helpers send their requests: a test-mode secret key and the server's URL. */
export type PayframeApiOptions = {
  /** A test-mode secret key (`sk_test_…`): the helpers only ever act in test mode. */
  apiKey: string;
  /** The Payframe server, e.g. `http://127.0.0.1:4000` (the default). */
  apiBase?: string;
  /** Per request; default 10 s, less than Playwright's test timeout, so a hung server fails as itself. */
  timeoutMs?: number;
};

const DEFAULT_API_BASE = 'http://127.0.0.1:4000';

/** What a helper throws when the API answers other than 200: its status and error code, for a test to check without reading the message. */
export class PayframeApiError extends Error {
  readonly status: number;
  /** The API's error code (`CHARGE_ALREADY_CAPTURED`, …); undefined when the answer was no API error. */
  readonly code: string | undefined;

  constructor(message: string, status: number, code: string | undefined) {
    super(message);
    this.name = 'PayframeApiError';
    this.status = status;
    this.code = code;
  }
}

/**
 * One API call with the test key. Each call stands alone (no client, no shared state), so helpers
 * are safe in any number of parallel workers. Anything but 200 throws with the API's code and message.
 */
export async function callApi<T>(what: string, options: PayframeApiOptions, method: 'GET' | 'POST', path: string): Promise<T> {
  if (!options.apiKey?.startsWith('sk_test_')) throw new Error(`${what}: needs apiKey, a test-mode secret key (sk_test_…)`);
  const url = new URL(path, options.apiBase ?? DEFAULT_API_BASE);
  const timeoutMs = options.timeoutMs ?? 10_000;
  let response: Response;
  try {
    response = await fetch(url, { method, headers: { 'x-api-key': options.apiKey }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError')
      throw new Error(`${what}: ${method} ${url.origin}${url.pathname} got no answer within ${timeoutMs} ms`);
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new Error(`${what}: ${method} ${url.origin}${url.pathname} failed: ${reason}`);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.status !== 200 || body === undefined) {
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new PayframeApiError(
      `${what}: ${method} ${url.pathname} answered ${response.status} ${error?.code ?? ''}: ${error?.message ?? text.slice(0, 200)}`,
      response.status,
      error?.code,
    );
  }
  return body as T;
}
