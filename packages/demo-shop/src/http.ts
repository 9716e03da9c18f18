import type { IncomingMessage } from 'node:http';
import type { JSX } from 'preact';
import { renderDocument } from './render.tsx';

/** What a handler answers; the server adds the security headers (and text/plain unless told). */
export type Reply = { status: number; body?: string; headers?: Record<string, string> };

export type ShopRequest = { method: string; url: URL; params: string[]; form: URLSearchParams };

export const redirect = (location: string): Reply => ({ status: 303, headers: { location } });

export const htmlReply = (page: JSX.Element, status = 200): Reply => ({
  status,
  body: renderDocument(page),
  headers: { 'content-type': 'text/html; charset=utf-8' },
});

const FORM_LIMIT = 16 * 1024;

/** A urlencoded form body (the shop's own forms are tiny). */
export async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of request) {
    body += String(chunk);
    if (body.length > FORM_LIMIT) throw new Error('form too large');
  }
  return new URLSearchParams(body);
}

/**
 * The pages' Content-Security-Policy: nothing inline, scripts and frames from the shop and Payframe
 * only. `form-action` names Payframe too: a checkout POST answers with a redirect to the hosted
 * 3-D Secure page, and Chromium checks form-action against every redirect of a form submission.
 */
export function securityHeaders(payframeOrigin: string): Record<string, string> {
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${payframeOrigin}`,
    `frame-src ${payframeOrigin}`,
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    `form-action 'self' ${payframeOrigin}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'referrer-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  };
}

/** A cross-site POST (another site's form aimed at the refund button) is refused. */
export function isCrossSite(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  return origin !== undefined && origin !== `http://${request.headers.host}` && origin !== `https://${request.headers.host}`;
}
