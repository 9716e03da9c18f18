import type { ErrorBody } from '@payframe/contract';
import { TEST_CARDS } from '@payframe/contract/test-cards';

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

/** A thin HTTP client over fetch: real requests, nothing of the server imported. */
export function client(baseUrl: string, apiKey?: string) {
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
export async function rawRequest(baseUrl: string, path: string, init: RequestInit): Promise<ApiResponse> {
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

export function tokenParams(number: string, overrides: Params = {}): Params {
  return {
    card: { number, cvc: '123', exp_month: '12', exp_year: String(new Date().getUTCFullYear() + 3), name: 'Ada Lovelace' },
    shopper: { ip: '203.0.113.7', session_id: 'session-1', email: 'ada@example.com' },
    ...overrides,
  };
}

export function chargeParams(token: string, overrides: Params = {}): Params {
  return { token, amount: '500', currency: 'eur', description: 'Order #1', return_url: 'https://shop.example/return', ...overrides };
}

/** token → charge, returning the charge body; fails the test loudly if either step does. */
export async function createCharge(api: Client, number: string, overrides: Params = {}): Promise<any> {
  const token = await api.post('/v2/tokens', tokenParams(number));
  if (token.status !== 200) throw new Error(`token: ${token.status} ${JSON.stringify(token.body)}`);
  const charge = await api.post('/v2/charges', chargeParams(token.body.id, overrides));
  if (charge.status !== 200) throw new Error(`charge: ${charge.status} ${JSON.stringify(charge.body)}`);
  return charge.body;
}

export function expectErrorShape(body: ErrorBody): void {
  if (typeof body?.type !== 'string' || typeof body.message !== 'string') throw new Error(`not an error body: ${JSON.stringify(body)}`);
  if (body.error?.message !== body.message) throw new Error(`error.message differs from message: ${JSON.stringify(body)}`);
  if (!/^[A-Z][A-Z_]*$/.test(body.error.code)) throw new Error(`error.code not UPPER_SNAKE: ${JSON.stringify(body)}`);
}
