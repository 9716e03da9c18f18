import {
  type AdvanceClockBodySchema,
  ApiKeyListSchema,
  ApiKeyRowSchema,
  type CaptureChargeBody,
  type ChangePasswordBody,
  ChargeSchema,
  CreatedApiKeysSchema,
  CreatedWebhookEndpointSchema,
  type CreateRefundBody,
  DASHBOARD_API_PREFIX,
  DASHBOARD_CSRF_HEADER,
  DashboardAccountSchema,
  DashboardChargeListSchema,
  type DashboardChargesQuery,
  type DashboardEventsQuery,
  type DashboardLoginBody,
  DashboardLogoutSchema,
  DashboardOverviewSchema,
  type DashboardRequestLogQuery,
  type DashboardSession,
  DashboardSessionSchema,
  DashboardUserListSchema,
  DeletedWebhookEndpointSchema,
  EventListSchema,
  InvitedUserSchema,
  type InviteUserBody,
  type Mode,
  type OverviewPeriod,
  RefundSchema,
  RemovedUserSchema,
  RequestLogDetailSchema,
  RequestLogListSchema,
  type ResendEventBody,
  TestClockSchema,
  type UpdateAccountBody,
  WebhookDeliveryListSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
} from '@payframe/contract';
import type { z } from 'zod';
import { DashboardApiError, errorFromResponse } from './api-error.ts';

type Query = Record<string, string | number | undefined>;
type Request = { method?: 'GET' | 'POST' | 'DELETE'; query?: Query; body?: unknown };

/** Query parameters as the client sends them: the list limit and filters before the server's parsing. */
export type ChargesQuery = Partial<Omit<DashboardChargesQuery, 'mode' | 'created'>> & { 'created[gte]'?: number; 'created[lt]'?: number };
export type EventsQuery = Partial<Omit<DashboardEventsQuery, 'mode' | 'created'>>;
export type RequestLogQuery = Partial<Omit<DashboardRequestLogQuery, 'mode'>>;
export type CreateWebhookEndpointInput = { url: string; events?: string[]; description?: string };
export type UpdateWebhookEndpointInput = { url?: string; events?: string[]; description?: string | null; disabled?: boolean };

export type ClientOptions = {
  fetch?: typeof globalThis.fetch;
  /** Called when a request made within a session answers 401: the session has ended. */
  onSessionExpired?: () => void;
};

/**
 * The one way the dashboard talks to the server: every answer is parsed by its contract schema,
 * every failure becomes a `DashboardApiError`, and every mutation carries the session's CSRF token.
 */
export function createClient({ fetch = (input, init) => globalThis.fetch(input, init), onSessionExpired }: ClientOptions = {}) {
  let csrfToken: string | null = null;

  async function call<S extends z.ZodType>(schema: S, path: string, { method = 'GET', query, body }: Request = {}): Promise<z.output<S>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method !== 'GET' && csrfToken !== null) headers[DASHBOARD_CSRF_HEADER] = csrfToken;
    let response: Response;
    try {
      response = await fetch(`${DASHBOARD_API_PREFIX}${path}${queryString(query)}`, {
        method,
        headers,
        credentials: 'same-origin',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new DashboardApiError('NETWORK_ERROR', 'The server could not be reached. Check your connection and try again.', 0);
    }
    const json: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const error = errorFromResponse(response.status, json);
      if (response.status === 401 && csrfToken !== null) {
        csrfToken = null;
        onSessionExpired?.();
      }
      throw error;
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new DashboardApiError('UNEXPECTED_RESPONSE', 'The server sent an answer the dashboard does not understand.', response.status);
    return parsed.data;
  }

  const signedIn = (session: DashboardSession) => {
    csrfToken = session.csrfToken;
    return session;
  };
  const mode = (value: Mode, extra: Query = {}) => ({ mode: value, ...extra });
  const id = encodeURIComponent;

  return {
    login: (body: DashboardLoginBody) => call(DashboardSessionSchema, '/login', { method: 'POST', body }).then(signedIn),
    session: () => call(DashboardSessionSchema, '/session').then(signedIn),
    logout: async () => {
      const answer = await call(DashboardLogoutSchema, '/logout', { method: 'POST' });
      csrfToken = null;
      return answer;
    },

    listCharges: (m: Mode, query: ChargesQuery = {}) => call(DashboardChargeListSchema, '/charges', { query: mode(m, query) }),
    /** Where the browser downloads the CSV of every charge the filter finds (a plain GET with the session's cookie). */
    chargesExportUrl: (m: Mode, query: ChargesQuery = {}) => `${DASHBOARD_API_PREFIX}/charges/export${queryString(mode(m, query))}`,
    getCharge: (m: Mode, charge: string) => call(ChargeSchema, `/charges/${id(charge)}`, { query: mode(m) }),
    captureCharge: (m: Mode, charge: string, body: CaptureChargeBody = {}) =>
      call(ChargeSchema, `/charges/${id(charge)}/capture`, { method: 'POST', query: mode(m), body }),
    cancelCharge: (m: Mode, charge: string) => call(ChargeSchema, `/charges/${id(charge)}/cancel`, { method: 'POST', query: mode(m) }),
    refundCharge: (m: Mode, charge: string, body: CreateRefundBody) =>
      call(RefundSchema, `/charges/${id(charge)}/refund`, { method: 'POST', query: mode(m), body }),

    listEvents: (m: Mode, query: EventsQuery = {}) => call(EventListSchema, '/events', { query: mode(m, query) }),
    listDeliveries: (m: Mode, event: string) => call(WebhookDeliveryListSchema, `/events/${id(event)}/deliveries`, { query: mode(m) }),
    resendEvent: (m: Mode, event: string, body: ResendEventBody = {}) =>
      call(WebhookDeliveryListSchema, `/events/${id(event)}/resend`, { method: 'POST', query: mode(m), body }),

    listKeys: (m: Mode) => call(ApiKeyListSchema, '/keys', { query: mode(m) }),
    createKeys: (m: Mode) => call(CreatedApiKeysSchema, '/keys', { method: 'POST', query: mode(m) }),
    revokeKey: (m: Mode, key: string) => call(ApiKeyRowSchema, `/keys/${id(key)}/revoke`, { method: 'POST', query: mode(m) }),

    listWebhookEndpoints: (m: Mode, query: Query = {}) => call(WebhookEndpointListSchema, '/webhook_endpoints', { query: mode(m, query) }),
    createWebhookEndpoint: (m: Mode, body: CreateWebhookEndpointInput) =>
      call(CreatedWebhookEndpointSchema, '/webhook_endpoints', { method: 'POST', query: mode(m), body }),
    updateWebhookEndpoint: (m: Mode, endpoint: string, body: UpdateWebhookEndpointInput) =>
      call(WebhookEndpointSchema, `/webhook_endpoints/${id(endpoint)}`, { method: 'POST', query: mode(m), body }),
    deleteWebhookEndpoint: (m: Mode, endpoint: string) =>
      call(DeletedWebhookEndpointSchema, `/webhook_endpoints/${id(endpoint)}`, { method: 'DELETE', query: mode(m) }),

    getClock: () => call(TestClockSchema, '/clock'),
    advanceClock: (body: z.input<typeof AdvanceClockBodySchema>) => call(TestClockSchema, '/clock', { method: 'POST', body }),

    getOverview: (m: Mode, period: OverviewPeriod) => call(DashboardOverviewSchema, '/overview', { query: mode(m, { period }) }),
    listRequestLog: (m: Mode, query: RequestLogQuery = {}) => call(RequestLogListSchema, '/request_log', { query: mode(m, query) }),
    getRequestLog: (m: Mode, request: string) => call(RequestLogDetailSchema, `/request_log/${id(request)}`, { query: mode(m) }),
    listUsers: () => call(DashboardUserListSchema, '/users'),
    inviteUser: (body: InviteUserBody) => call(InvitedUserSchema, '/users', { method: 'POST', body }),
    removeUser: (user: string) => call(RemovedUserSchema, `/users/${id(user)}`, { method: 'DELETE' }),
    changePassword: (body: ChangePasswordBody) => call(DashboardLogoutSchema, '/password', { method: 'POST', body }),

    getAccount: () => call(DashboardAccountSchema, '/account'),
    updateAccount: (body: UpdateAccountBody) => call(DashboardAccountSchema, '/account', { method: 'POST', body }),
  };
}

export type DashboardClient = ReturnType<typeof createClient>;

function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
