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

export function threeDSRedirect(threeDSUrl: string, key: Buffer, chargeId: string): string {
  const url = new URL(`${threeDSUrl.replace(/\/$/, '')}/${encodeURIComponent(chargeId)}`);
  url.searchParams.set('paRes', threeDSParam(key, chargeId));
  return url.toString();
}
