import { PAGE_CSS_HASH } from './styles.ts';

/**
 * The page's Content-Security-Policy: its own origin only, no scripts at all (it needs none), its
 * one inline stylesheet by hash, never framed (clickjacking), and forms may go to this origin and
 * to the merchant's return origin — browsers check a form's redirect target against form-action,
 * so without it they would block the 303 back to the shop.
 */
export function contentSecurityPolicy(formTargets: readonly string[] = []): string {
  const formAction = ["'self'", ...new Set(formTargets.map(originOf).filter((origin) => origin !== null))];
  return [
    "default-src 'self'",
    "script-src 'none'",
    `style-src 'self' ${PAGE_CSS_HASH}`,
    // data: only for the empty favicon, which spares browsers a request for /favicon.ico.
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action ${formAction.join(' ')}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

/** `https://shop.example:8443` of a URL, or null for anything that is not an http(s) URL. */
function originOf(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null;
}
