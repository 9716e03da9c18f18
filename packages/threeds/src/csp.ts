import { PAGE_CSS_HASH } from './styles.ts';

export type PolicyOptions = {
  /** The page loads the pages' one script (from this origin). */
  script?: boolean;
  /** The only origin that may frame the page (the in-page challenge); otherwise no one may. */
  frameAncestor?: string | null;
};

/**
 * The page's Content-Security-Policy: its own origin only, scripts only where a page needs its one
 * script (from this origin, never inline), its one inline stylesheet by hash, framed by no one
 * (clickjacking) or, for the in-page challenge, by the return URL's origin alone; and forms may go
 * to this origin and to the merchant's return origin — browsers check a form's redirect target
 * against form-action, so without it they would block the 303 back to the shop.
 */
export function contentSecurityPolicy(formTargets: readonly string[] = [], options: PolicyOptions = {}): string {
  const formAction = ["'self'", ...new Set(formTargets.map(originOf).filter((origin) => origin !== null))];
  const ancestor = options.frameAncestor ? originOf(options.frameAncestor) : null;
  return [
    "default-src 'self'",
    options.script ? "script-src 'self'" : "script-src 'none'",
    `style-src 'self' ${PAGE_CSS_HASH}`,
    // data: only for the empty favicon, which spares browsers a request for /favicon.ico.
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action ${formAction.join(' ')}`,
    `frame-ancestors ${ancestor ?? "'none'"}`,
  ].join('; ');
}

/** `https://shop.example:8443` of a URL, or null for anything that is not an http(s) URL. */
export function originOf(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null;
}
