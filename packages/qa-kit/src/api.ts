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
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new Error(`${what}: ${method} ${url.origin}${url.pathname} failed within ${timeoutMs} ms: ${reason}`);
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
    throw new Error(`${what}: ${method} ${url.pathname} answered ${response.status} ${error?.code ?? ''}: ${error?.message ?? text.slice(0, 200)}`);
  }
  return body as T;
}
