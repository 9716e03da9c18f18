import { type Charge, ChargeSchema, type Refund, RefundSchema, type TestClock, TestClockSchema, type Token, TokenSchema } from '@payframe/contract';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import { chargeParams, expectErrorBody, tokenParams } from '@payframe/contract/testing';
import type { z } from 'zod';

export type Encoding = 'form' | 'json' | 'multipart';
export type ApiResponse<T = any> = { status: number; body: T; headers: Headers };
type Params = Record<string, unknown>;

/** Flattens nested params into bracketed names, as a form-posting client would send them. */
export function bracketed(params: Params, prefix = ''): Array<[string, string]> {
  return Object.entries(params).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (value === undefined) return [];
    if (value !== null && typeof value === 'object') return bracketed(value as Params, name);
    return [[name, String(value)] as [string, string]];
  });
}

function encode(params: Params | undefined, encoding: Encoding): { body?: string | FormData | URLSearchParams; headers: Record<string, string> } {
  if (params === undefined) return { headers: {} };
  if (encoding === 'json') return { body: JSON.stringify(params), headers: { 'content-type': 'application/json' } };
  if (encoding === 'multipart') {
    const form = new FormData();
    for (const [name, value] of bracketed(params)) form.append(name, value);
    return { body: form, headers: {} };
  }
  return { body: new URLSearchParams(bracketed(params)), headers: {} };
}

/** A server's URL (requests by the global fetch), or a server with its own fetch (an in-process one's inject()). */
export type Target = string | { url: string; fetch: typeof fetch };

export function resolveTarget(target: Target): { url: string; fetch: typeof fetch } {
  return typeof target === 'string' ? { url: target, fetch: globalThis.fetch } : target;
}

/** A thin HTTP client over fetch: real requests, nothing of the server imported. */
export function client(target: Target, apiKey?: string) {
  const { url: baseUrl, fetch } = resolveTarget(target);
  async function request<T>(method: string, path: string, params?: Params, options: { encoding?: Encoding; headers?: Record<string, string> } = {}) {
    const { body, headers } = encode(params, options.encoding ?? 'form');
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      body: body ?? null,
      headers: { ...(apiKey ? { 'x-api-key': apiKey } : {}), ...headers, ...options.headers },
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers } as ApiResponse<T>;
  }
  return {
    get: <T = any>(path: string, options?: { headers?: Record<string, string> }) => request<T>('GET', path, undefined, options),
    post: <T = any>(path: string, params?: Params, options?: { encoding?: Encoding; headers?: Record<string, string> }) =>
      request<T>('POST', path, params, options),
    request,
  };
}
export type Client = ReturnType<typeof client>;

/** A request with a body the client helper cannot make (malformed, oversized, odd content type). */
export async function rawRequest(target: Target, path: string, init: RequestInit): Promise<ApiResponse> {
  const { url: baseUrl, fetch } = resolveTarget(target);
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Left as text: the JSON assertions then fail and show it.
  }
  return { status: response.status, body, headers: response.headers };
}

/** The test cards' numbers under the names the API tests use; the cards themselves live in the contract. */
export const TEST_PANS = {
  visa: TEST_CARDS.visa.number,
  visa3ds: TEST_CARDS.visa3DS.number,
  mastercard3ds: TEST_CARDS.mastercard3DS.number,
  mastercardDebit: TEST_CARDS.mastercardDebit.number,
  visaFr3ds: TEST_CARDS.visaFrance3DS.number,
  visaDebitIn: TEST_CARDS.visaDebitIndia.number,
  maestro3ds: TEST_CARDS.maestro3DS.number,
  declined: TEST_CARDS.declined.number,
  insufficientFunds: TEST_CARDS.insufficientFunds.number,
  expired: TEST_CARDS.expiredCard.number,
  incorrectCvc: TEST_CARDS.incorrectCvc.number,
  otp3ds: TEST_CARDS.otp3DS.number,
  outOfBand3ds: TEST_CARDS.outOfBand3DS.number,
  frictionless3ds: TEST_CARDS.frictionless3DS.number,
  rejected3ds: TEST_CARDS.rejected3DS.number,
  unavailable3ds: TEST_CARDS.unavailable3DS.number,
} as const;

/** The one card fixture's parameters, shared with every other suite. */
export { chargeParams, tokenParams } from '@payframe/contract/testing';

/**
 * A 200 whose body is exactly `schema` (no field more), returned typed. Anything else fails the
 * test loudly, with the status and body.
 */
export function expectResource<S extends z.ZodObject>(response: ApiResponse<unknown>, schema: S): z.infer<S> {
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status} ${JSON.stringify(response.body)}`);
  const parsed = schema.safeParse(response.body);
  if (!parsed.success) throw new Error(`not the resource's schema: ${JSON.stringify(response.body)}\n${parsed.error.message}`);
  const extra = Object.keys(response.body ?? {}).filter((key) => !(key in schema.shape));
  if (extra.length > 0) throw new Error(`fields the schema does not have (${extra.join(', ')}): ${JSON.stringify(response.body)}`);
  return parsed.data;
}

export async function createToken(api: Client, number: string, overrides: Params = {}): Promise<Token> {
  return expectResource(await api.post('/v2/tokens', tokenParams(number, overrides)), TokenSchema);
}

/** token → charge, returning the charge; fails the test loudly if either step does. */
export async function createCharge(api: Client, number: string, overrides: Params = {}): Promise<Charge> {
  const token = await createToken(api, number);
  return expectResource(await api.post('/v2/charges', chargeParams(token.id, overrides)), ChargeSchema);
}

export async function retrieveCharge(api: Client, id: string): Promise<Charge> {
  return expectResource(await api.get(`/v2/charges/${id}`), ChargeSchema);
}

export async function captureCharge(api: Client, id: string): Promise<Charge> {
  return expectResource(await api.post(`/v2/charges/capture/${id}`), ChargeSchema);
}

export async function cancelCharge(api: Client, id: string): Promise<Charge> {
  return expectResource(await api.post(`/v2/charges/cancel/${id}`), ChargeSchema);
}

/** Refunds `amount` (the whole remainder when omitted). */
export async function refundCharge(api: Client, id: string, amount?: number): Promise<Refund> {
  const params = amount === undefined ? undefined : { amount: String(amount) };
  return expectResource(await api.post(`/v2/charges/refund/${id}`, params), RefundSchema);
}

/** The 3-D Secure test helper: settles the charge's authentication as the shopper would. */
export async function authenticateCharge(api: Client, id: string, result: 'success' | 'failure'): Promise<Charge> {
  return expectResource(await api.post(`/v2/test_helpers/charges/${id}/authenticate`, { result }), ChargeSchema);
}

export async function readClock(api: Client): Promise<TestClock> {
  return expectResource(await api.get('/v2/test_helpers/clock'), TestClockSchema);
}

export async function advanceClock(api: Client, seconds: number): Promise<TestClock> {
  return expectResource(await api.post('/v2/test_helpers/clock', { advance_seconds: String(seconds) }), TestClockSchema);
}

/** The body is the API's error shape (see `expectError` of @payframe/contract/testing for status and code too). */
export function expectErrorShape(body: unknown): void {
  expectErrorBody(body);
}
