import { createHmac, timingSafeEqual } from 'node:crypto';

/** paRes = base64url(HMAC-SHA256(secret, charge id)): recomputed on every read, never stored. */
export function threeDSParam(key: Buffer, chargeId: string): string {
  return createHmac('sha256', key).update(chargeId).digest('base64url');
}

export function isValidThreeDSParam(key: Buffer, chargeId: string, candidate: string): boolean {
  const expected = Buffer.from(threeDSParam(key, chargeId));
  const given = Buffer.from(candidate);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The page's URL, normalized by the URL parser once per setting: every charge view carries a link. */
let parsedBase: { threeDSUrl: string; href: string | null } | undefined;

/** `{threeDSUrl}/` as the URL parser writes it; null when it carries a query or fragment (parsed per link then). */
function baseHref(threeDSUrl: string): string | null {
  if (parsedBase?.threeDSUrl !== threeDSUrl) {
    const url = new URL(`${threeDSUrl.replace(/\/$/, '')}/`);
    parsedBase = { threeDSUrl, href: url.search || url.hash ? null : url.href };
  }
  return parsedBase.href;
}

export function threeDSRedirect(threeDSUrl: string, key: Buffer, chargeId: string): string {
  const base = baseHref(threeDSUrl);
  // encodeURIComponent leaves only characters a URL path keeps as they are; paRes is base64url.
  if (base !== null) return `${base}${encodeURIComponent(chargeId)}?paRes=${threeDSParam(key, chargeId)}`;
  const url = new URL(`${threeDSUrl.replace(/\/$/, '')}/${encodeURIComponent(chargeId)}`);
  url.searchParams.set('paRes', threeDSParam(key, chargeId));
  return url.toString();
}
