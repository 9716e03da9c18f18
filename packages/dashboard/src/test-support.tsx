import {
  type Charge,
  ChargeSchema,
  DASHBOARD_API_PREFIX,
  type DashboardCharge,
  type DashboardOverview,
  DashboardOverviewSchema,
  type DashboardRole,
  DashboardSessionSchema,
  ERROR_CODES,
  type ErrorCode,
  type Event,
  type EventName,
  EventSchema,
} from '@payframe/contract';
import { render } from '@testing-library/preact';
import { App } from './app.tsx';

export type ApiRequest = { method: string; path: string; query: URLSearchParams; body: unknown; headers: Headers };
type Answer = { status?: number; body: unknown };
type Responder = (request: ApiRequest) => Answer;

export type FakeApi = {
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  requests: ApiRequest[];
  /** Answers `METHOD /path` with a function of the request, or always with the same JSON. */
  on: {
    (route: string, responder: Responder): FakeApi;
    (route: string, body: unknown): FakeApi;
  };
  /** The last request made to `METHOD /path`. */
  last: (route: string) => ApiRequest | undefined;
};

/**
 * The dashboard API stood in by a fake `fetch`: answers are registered per method and path (without
 * the `/dashboard/api` prefix), every request is kept, and an unknown route answers as the server would.
 */
export function fakeApi(): FakeApi {
  const routes = new Map<string, Responder>();
  const requests: ApiRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), 'http://dashboard.test');
    const request: ApiRequest = {
      method: init.method ?? 'GET',
      path: url.pathname.slice(DASHBOARD_API_PREFIX.length),
      query: url.searchParams,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: new Headers(init.headers),
    };
    requests.push(request);
    const responder = routes.get(`${request.method} ${request.path}`);
    const answer = responder ? responder(request) : error('ROUTE_NOT_FOUND', 'Unknown route');
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  };
  const api: FakeApi = {
    fetch,
    requests,
    on(route: string, answer: unknown) {
      routes.set(route, typeof answer === 'function' ? (answer as Responder) : () => ({ body: answer }));
      return api;
    },
    last: (route: string) => requests.filter((request) => `${request.method} ${request.path}` === route).at(-1),
  };
  return api;
}

export function error(code: ErrorCode, message: string, parameter?: string): Answer {
  const { status, type } = ERROR_CODES[code];
  return { status, body: { type, message, error: { code, message, ...(parameter ? { parameter } : {}) } } };
}

export const CSRF_TOKEN = 'csrf-token-of-the-session';

export function session(role: DashboardRole = 'admin') {
  return DashboardSessionSchema.parse({
    user: { email: 'demo@payframe.test', role },
    account: { id: 'acct_demo', name: 'Demo shop' },
    csrfToken: CSRF_TOKEN,
  });
}

const CREATED = 1_795_342_555;

/** A charge as the API returns it: 10.00 EUR on a Visa ending 4242, captured, unless told otherwise. */
export function charge(overrides: Partial<Charge> = {}): Charge {
  const id = overrides.id ?? 'C00000000000000000001';
  return ChargeSchema.parse({
    type: 'charge',
    id,
    currency: 'EUR',
    amount: 1000,
    amount_captured: 1000,
    amount_refunded: 0,
    fees: 45,
    description: 'Order 1001',
    txn_reference: 'order-1001',
    threedSecure: { redirect: `http://127.0.0.1:4000/3ds/${id}`, returnUrl: 'http://shop.test/return', status: 'CAPTURED', transStatus: 'Y' },
    status: 'CHARGE_SUCCESS',
    reason: null,
    token: {
      type: 'token',
      id: '6f1c2d8e-1111-4222-8333-944455556666',
      card: {
        fundingType: 'CREDIT',
        country: 'NL',
        last4Digits: '4242',
        type: 'CREDIT',
        brand: 'VISA',
        bank: 'Test Bank',
        name: 'Ada Lovelace',
        authorization: 'REQUIRED',
        addressLine1: null,
        addressLine2: null,
        addressCity: null,
        addressState: null,
        addressZip: null,
        addressCountry: null,
      },
      created: CREATED,
    },
    created: CREATED,
    mode: 'test',
    metadata: {},
    ...overrides,
  });
}

/** A charge as the dashboard's charge list returns it: with the shopper's e-mail. */
export function listedCharge(overrides: Partial<Charge> = {}, email = 'ada@example.com'): DashboardCharge {
  return { ...charge(overrides), email };
}

/** `count` charges as the dashboard lists them, newest first, with ids counting down from `newest`. */
export function charges(count: number, newest: number): DashboardCharge[] {
  return Array.from({ length: count }, (_, index) => listedCharge({ id: `C${String(newest - index).padStart(20, '0')}` }));
}

export function event(name: EventName, object: Charge, index = 1): Event {
  return EventSchema.parse({ type: 'event', id: `evt_${index}`, name, created: CREATED + index, mode: object.mode, data: { object } });
}

export function list<T>(url: string, data: T[], hasMore = false) {
  return { type: 'list', url, has_more: hasMore, data };
}

/** Opens the dashboard at `path` as a browser would, with the fake API behind it. */
export function openDashboard(api: FakeApi, path: string) {
  history.replaceState(null, '', path);
  return render(<App fetch={api.fetch} />);
}

/** The home page's figures for 7 days ending 2026-11-26: EUR and USD captured, a refund, declines and 3-D Secure outcomes. */
export function overview(overrides: Partial<DashboardOverview> = {}): DashboardOverview {
  const dates = ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26'];
  return DashboardOverviewSchema.parse({
    mode: 'test',
    period: '7d',
    from: dates[0],
    to: dates.at(-1),
    volume: [
      { currency: 'EUR', amount: 150_000 },
      { currency: 'USD', amount: 2_500 },
    ],
    created: 8,
    succeeded: 6,
    success_rate: 0.75,
    refunds: { count: 1, amount: [{ currency: 'EUR', amount: 300 }] },
    days: dates.map((date, index) => ({
      date,
      succeeded: index === 6 ? 5 : index === 2 ? 1 : 0,
      volume:
        index === 6
          ? [{ currency: 'EUR', amount: 140_000 }]
          : index === 2
            ? [
                { currency: 'EUR', amount: 10_000 },
                { currency: 'USD', amount: 2_500 },
              ]
            : [],
    })),
    declines: [
      { reason: 'INSUFFICIENT_FUNDS', count: 2 },
      { reason: 'GENERIC_DECLINE', count: 1 },
    ],
    threeds: [
      { status: 'Y', count: 3 },
      { status: 'N', count: 1 },
      { status: 'R', count: 0 },
      { status: 'U', count: 1 },
    ],
    ...overrides,
  });
}
