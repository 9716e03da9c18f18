import { DASHBOARD_CSRF_HEADER, DASHBOARD_SESSION_COOKIE, PayframeError } from '@payframe/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../domain/clock.ts';
import type { Store } from '../../services/context.ts';
import { type ActiveSession, csrfTokenMatches, resumeSession, type SessionLifetime } from '../../services/dashboard-sessions.ts';

/*
 * The /dashboard/api gate, one onRequest hook per rule, in this order: an API key is refused (401)
 * → the session cookie must name a live session (401), except on sign-in → a live-mode mutation
 * needs HTTPS (403) → a mutation must come from this origin and carry its session's CSRF token
 * (403) → a viewer may not mutate (403), except to sign out. All of it runs before the body is read.
 */

declare module 'fastify' {
  interface FastifyRequest {
    dashboardSession: ActiveSession | null;
  }
  interface FastifyContextConfig {
    /** Reached without a session (sign-in). */
    dashboardPublic?: boolean;
    /** A mutation a viewer may make too (sign-out). */
    dashboardViewerMay?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isMutation(request: FastifyRequest): boolean {
  return !SAFE_METHODS.has(request.method);
}

/** API keys mean nothing here: a request that carries one is refused whatever else it carries. */
export async function refuseApiKeys(request: FastifyRequest): Promise<void> {
  if (request.headers['x-api-key'] !== undefined) {
    throw new PayframeError('SESSION_EXPIRED', 'API keys are not accepted by the dashboard API: sign in to the dashboard.');
  }
}

export function requireSession(store: Store, clock: Clock, lifetime: SessionLifetime) {
  return async function resumeDashboardSession(request: FastifyRequest): Promise<void> {
    if (request.routeOptions.config.dashboardPublic) return;
    const token = request.cookies[DASHBOARD_SESSION_COOKIE];
    const session = token ? await resumeSession(store, clock, lifetime, token) : null;
    if (!session) throw new PayframeError('SESSION_EXPIRED');
    request.dashboardSession = session;
  };
}

/**
 * A mutation must name this server as its `Origin`: the request's own scheme and host, or the
 * configured public URL's origin (behind a proxy that rewrites Host). Browsers send `Origin` on
 * every cross-origin request and every same-origin POST/DELETE, so a missing one is refused too.
 */
export function requireSameOrigin(publicUrl: () => string | undefined) {
  return async function refuseForeignOrigin(request: FastifyRequest): Promise<void> {
    if (!isMutation(request)) return;
    const origin = request.headers.origin;
    const allowed = [`${request.protocol}://${request.host}`];
    const configured = publicUrl();
    if (configured) allowed.push(new URL(configured).origin);
    if (!origin || !allowed.includes(origin)) throw new PayframeError('CSRF_REJECTED');
  };
}

export async function requireCsrfToken(request: FastifyRequest): Promise<void> {
  const session = request.dashboardSession;
  if (!isMutation(request) || !session) return;
  const header = request.headers[DASHBOARD_CSRF_HEADER.toLowerCase()];
  if (!csrfTokenMatches(session, Array.isArray(header) ? header[0] : header)) throw new PayframeError('CSRF_REJECTED');
}

/**
 * As on /v2, live mode needs HTTPS (TLS, or a trusted proxy's X-Forwarded-Proto): a live-mode
 * mutation over plain HTTP (a new live key, a capture, a refund) is refused before it runs.
 */
export async function refuseLiveOverPlainHttp(request: FastifyRequest): Promise<void> {
  if (!isMutation(request) || request.protocol === 'https') return;
  const { mode } = (request.query ?? {}) as { mode?: unknown };
  if (String(mode).toLowerCase() === 'live') throw new PayframeError('HTTPS_REQUIRED', 'Live-mode changes must be made over HTTPS.');
}

export async function adminsMutate(request: FastifyRequest): Promise<void> {
  const session = request.dashboardSession;
  if (isMutation(request) && session?.role === 'viewer' && !request.routeOptions.config.dashboardViewerMay) {
    throw new PayframeError('ROLE_NOT_ALLOWED');
  }
}

export function sessionOf(request: FastifyRequest): ActiveSession {
  if (!request.dashboardSession) throw new Error('Dashboard route reached without a session');
  return request.dashboardSession;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, lifetime: SessionLifetime): void {
  reply.setCookie(DASHBOARD_SESSION_COOKIE, token, { ...cookieOptions(request), maxAge: Math.floor(lifetime.maxMs / 1000) });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(DASHBOARD_SESSION_COOKIE, cookieOptions(request));
}

function cookieOptions(request: FastifyRequest) {
  return { path: '/dashboard', httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https' } as const;
}
