import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Event } from '@payframe/contract';
import { SignatureVerificationError } from './errors.ts';

// Standard Webhooks verification (standardwebhooks.com), written out so the SDK needs no dependency:
// the signature is base64 HMAC-SHA256, keyed with the base64-decoded part of the `whsec_` secret,
// over "<webhook-id>.<webhook-timestamp>.<raw body>"; the header holds `v1,<signature>` entries
// separated by spaces (several while a secret is being rotated).

/** Header values as Node's `IncomingMessage.headers` has them, or a fetch `Headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export type ConstructEventOptions = {
  /** Seconds the timestamp may be away from now, either way (default 300). */
  tolerance?: number;
  /** Now in epoch seconds; for tests. */
  now?: number;
};

const DEFAULT_TOLERANCE_SECONDS = 300;
const SECRET_PREFIX = 'whsec_';

/**
 * Checks a webhook's signature and timestamp and returns the event it carries. Pass the body
 * exactly as received (before any JSON parsing) and the request's headers.
 */
export function constructEvent(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string, options: ConstructEventOptions = {}): Event {
  // Plain JavaScript can hand over what a JSON body parser left (an object), which node:crypto would refuse with a TypeError.
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new SignatureVerificationError(
      'Pass the raw body exactly as received (a string, Buffer or Uint8Array), not parsed JSON: with express, express.raw({ type: "application/json" }) on this route',
    );
  }
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!/^\d{1,15}$/.test(timestamp)) throw new SignatureVerificationError('webhook-timestamp is not a time in epoch seconds');
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - Number(timestamp)) > tolerance) {
    throw new SignatureVerificationError(`webhook-timestamp is more than ${tolerance} s away from now`);
  }

  const expected = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.`).update(rawBody).digest();
  // A `Headers` joins repeated headers with ", ", so a trailing comma may end an entry.
  const matches = signatures.split(/\s+/).some((entry) => {
    const [version, signature] = entry.replace(/,$/, '').split(',', 2);
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new SignatureVerificationError('No webhook-signature matches the body and the secret');

  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  try {
    return JSON.parse(text) as Event;
  } catch {
    throw new SignatureVerificationError('The signed body is not JSON');
  }
}

function secretKey(secret: string): Buffer {
  if (typeof secret !== 'string' || !secret.startsWith(SECRET_PREFIX)) {
    throw new SignatureVerificationError(`The secret must be the endpoint's ${SECRET_PREFIX}… secret`);
  }
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  if (key.length === 0) throw new SignatureVerificationError(`The secret must be the endpoint's ${SECRET_PREFIX}… secret`);
  return key;
}

/** One header in any key case; repeated signature headers count as one space-separated list. */
function header(headers: WebhookHeaders, name: string): string {
  let value: string | string[] | null | undefined;
  if (typeof (headers as Headers).get === 'function') value = (headers as Headers).get(name);
  else {
    const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
    value = key === undefined ? undefined : (headers as Record<string, string | string[] | undefined>)[key];
  }
  const text = Array.isArray(value) ? value.join(' ') : value;
  if (text === undefined || text === null || text === '') throw new SignatureVerificationError(`Missing ${name} header`);
  return text.trim();
}

export const webhooks = { constructEvent };
