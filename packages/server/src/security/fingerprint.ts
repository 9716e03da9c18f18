import { createHmac } from 'node:crypto';

/** Keyed, so the fingerprint of a known test number cannot be matched without the server secret. */
export function cardFingerprint(key: Buffer, number: string): string {
  return createHmac('sha256', key).update(number).digest('base64url');
}
