import { z } from 'zod';
import { ModeSchema } from './card.ts';
import { listEventsShape } from './events.ts';
import { text } from './fields.ts';
import { listChargesShape, listPageShape, oneCursor } from './lists.ts';

/**
 * The merchant dashboard's JSON API under `/dashboard/api/` (docs/dashboard.md). It takes a session
 * cookie, never an API key; every mutation carries the session's CSRF token in a header. Its shapes
 * carry no registry id: they stay out of the public API's OpenAPI document.
 */
export const DASHBOARD_API_PREFIX = '/dashboard/api';
export const DASHBOARD_SESSION_COOKIE = 'payframe_session';
export const DASHBOARD_CSRF_HEADER = 'X-CSRF-Token';
/** Lists show this many rows a page. */
export const DASHBOARD_PAGE_SIZE = 25;
export const DASHBOARD_MIN_PASSWORD_LENGTH = 12;

export const DASHBOARD_ROLES = ['admin', 'viewer'] as const;
export const DashboardRoleSchema = z.enum(DASHBOARD_ROLES, { error: 'must be admin or viewer' });
export type DashboardRole = z.infer<typeof DashboardRoleSchema>;

/** No length rule here beyond a bound: a short password must fail like a wrong one. */
export const DashboardLoginBodySchema = z.object({
  email: z.email({ error: 'must be an e-mail address' }).max(254, { error: 'must be at most 254 characters' }),
  password: text(1024),
});
export type DashboardLoginBody = z.infer<typeof DashboardLoginBodySchema>;

export const DashboardAccountSchema = z.object({ id: z.string(), name: z.string() });
export type DashboardAccount = z.infer<typeof DashboardAccountSchema>;

export const DashboardSessionSchema = z.object({
  user: z.object({ email: z.string(), role: DashboardRoleSchema }),
  account: DashboardAccountSchema,
  /** Sent back as the `X-CSRF-Token` header of every mutation. */
  csrfToken: z.string().min(1),
});
export type DashboardSession = z.infer<typeof DashboardSessionSchema>;

export const DashboardLogoutSchema = z.object({ ok: z.literal(true) });
export type DashboardLogout = z.infer<typeof DashboardLogoutSchema>;

/** `?mode=test|live` on every data endpoint: the dashboard shows one mode at a time. */
export const DashboardModeQuerySchema = z.object({ mode: ModeSchema });
export type DashboardModeQuery = z.infer<typeof DashboardModeQuerySchema>;

/** A page of a list without filters of its own (webhook endpoints), in one mode. */
export const DashboardPageQuerySchema = oneCursor(z.object({ mode: ModeSchema, ...listPageShape }));
export type DashboardPageQuery = z.infer<typeof DashboardPageQuerySchema>;

/**
 * The charge list's parameters and `q`, the search box's text: the charges whose id, txn_reference,
 * e-mail or last 4 it is (docs/dashboard.md, "Search"). It takes what a txn_reference takes.
 */
export const DashboardChargesQuerySchema = oneCursor(z.object({ mode: ModeSchema, ...listChargesShape, q: listChargesShape.txn_reference }));
export type DashboardChargesQuery = z.infer<typeof DashboardChargesQuerySchema>;

export const DashboardEventsQuerySchema = oneCursor(z.object({ mode: ModeSchema, ...listEventsShape }));
export type DashboardEventsQuery = z.infer<typeof DashboardEventsQuerySchema>;

export const API_KEY_KINDS = ['secret', 'publishable'] as const;

/** A key as the dashboard lists it: never the key, only its hint. */
export const ApiKeyRowSchema = z.object({
  id: z.string(),
  kind: z.enum(API_KEY_KINDS),
  mode: ModeSchema,
  /** The key's prefix and last 4 characters, e.g. `sk_test_…AbCd`. */
  hint: z.string(),
  created: z.number().int(),
  /** Epoch seconds of the last request made with it. */
  last_used: z.number().int().nullable(),
  revoked: z.number().int().nullable(),
});
export type ApiKeyRow = z.infer<typeof ApiKeyRowSchema>;

export const ApiKeyListSchema = z.object({ type: z.literal('list'), data: z.array(ApiKeyRowSchema) });
export type ApiKeyList = z.infer<typeof ApiKeyListSchema>;

/** One click makes a secret and publishable pair; the secret appears only in this answer. */
export const CreatedApiKeysSchema = z.object({
  secretKey: z.string().startsWith('sk_'),
  publishableKey: z.string().startsWith('pk_'),
  keys: z.array(ApiKeyRowSchema),
});
export type CreatedApiKeys = z.infer<typeof CreatedApiKeysSchema>;

/** The account's name is what shoppers see on the 3-D Secure page. */
export const UpdateAccountBodySchema = z.object({ name: text(100) });
export type UpdateAccountBody = z.infer<typeof UpdateAccountBodySchema>;
export * from './dashboard-overview.ts';
export * from './dashboard-request-log.ts';
