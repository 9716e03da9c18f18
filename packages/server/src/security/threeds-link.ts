import { createHmac, timingSafeEqual } from 'node:crypto';

/** paRes = base64url(HMAC-SHA256(secret, charge id)): recomputed from the id, never stored. */
export function threeDSParam(key: Buffer, chargeId: string): string {
  return createHmac('sha256', key).update(chargeId).digest('base64url');
}

/** Checked with a fresh HMAC, never the cache below: how long a check takes must not tell which charges were viewed lately. */
export function isValidThreeDSParam(key: Buffer, chargeId: string, candidate: string): boolean {
  const expected = Buffer.from(threeDSParam(key, chargeId));
  const given = Buffer.from(candidate);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Links signed lately, by key: every create, capture and read renders one, and its HMAC costs more than the rest of the view. */
const signed = new WeakMap<Buffer, Map<string, string>>();
const MAX_SIGNED = 10_000;

function cachedThreeDSParam(key: Buffer, chargeId: string): string {
  let byCharge = signed.get(key);
  if (!byCharge) {
    byCharge = new Map();
    signed.set(key, byCharge);
  }
  let param = byCharge.get(chargeId);
  if (param === undefined) {
    param = threeDSParam(key, chargeId);
    if (byCharge.size >= MAX_SIGNED) byCharge.clear();
    byCharge.set(chargeId, param);
  }
  return param;
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
  if (base !== null) return `${base}${encodeURIComponent(chargeId)}?paRes=${cachedThreeDSParam(key, chargeId)}`;
  const url = new URL(`${threeDSUrl.replace(/\/$/, '')}/${encodeURIComponent(chargeId)}`);
  url.searchParams.set('paRes', cachedThreeDSParam(key, chargeId));
  return url.toString();
}
