import { randomInt } from 'node:crypto';
import { pooledRandomBytes, pooledRandomHex } from './random-bytes.ts';

export type IdGenerator = { charge(): string; uuid(): string; prefixed(prefix: IdPrefix): string };

/** Events, webhook endpoints and deliveries: a prefix that names the kind, then 24 hex characters. */
export type IdPrefix = 'evt' | 'we' | 'whd';

let hexOfMs = -1;
let hexOfMsText = '';

/**
 * Milliseconds since the epoch as 12 hex digits (48 bits, good until the year 10889). Several ids
 * are made in most milliseconds under load: the last millisecond's digits are kept.
 */
export function timeHex(now: number): string {
  if (now !== hexOfMs) {
    hexOfMs = now;
    hexOfMsText = now.toString(16).padStart(12, '0');
  }
  return hexOfMsText;
}

/**
 * `req_`, the time in milliseconds as 12 hex digits, then 12 of CSPRNG output from the ids' pool.
 * The request log files an entry under that time, so its id alone finds it (requestIdTime).
 */
export function newRequestId(): string {
  return `req_${timeHex(Date.now())}${pooledRandomHex(6)}`;
}

/** Whether a character code is a lowercase hex digit, as Request-Ids are written. */
const isLowerHex = (code: number) => (code >= 48 && code <= 57) || (code >= 97 && code <= 102);

/**
 * When the request with this id was received, in epoch ms; undefined for anything not shaped as a
 * Request-Id (`req_` and 24 lowercase hex digits). The request log asks it of every request: a
 * loop over the characters costs less than a regular expression.
 */
export function requestIdTime(id: string): number | undefined {
  if (id.length !== 28 || !id.startsWith('req_')) return undefined;
  for (let i = 4; i < 28; i++) if (!isLowerHex(id.charCodeAt(i))) return undefined;
  return Number.parseInt(id.slice(4, 16), 16);
}

/**
 * Every id begins with its creation time, then carries its random part. Indexes on ids then grow at
 * their end like those on creation time, instead of each insert landing on a random page of the
 * b-tree: on SQLite that page is written to the WAL again at every group commit.
 */
export const randomIds: IdGenerator = {
  /** `C`, the creation time in milliseconds (13 digits), then 20 CSPRNG digits. */
  charge: () => `C${String(Date.now()).padStart(13, '0')}${String(randomInt(1e10)).padStart(10, '0')}${String(randomInt(1e10)).padStart(10, '0')}`,
  /** Tokens, refunds and accounts: a UUID version 7 (RFC 9562): 48 bits of time, 74 of CSPRNG. */
  uuid: () => {
    const hex = timeHex(Date.now()) + pooledRandomHex(10);
    const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  },
  /** 12 hex digits of time, then 12 of CSPRNG; see nextPrefixedTail. */
  prefixed: (prefix) => `${prefix}_${nextPrefixedTail()}`,
};

/** The last prefixed id's time and random part. */
let lastMs = -1;
let lastRandom = 0;

/**
 * Ids made in one millisecond increase: the first draws 47 random bits (headroom for as many
 * increments), the next add one. Lists break ties within a millisecond by id, so the events a
 * request records list in the order it recorded them. A clock that steps back keeps the last time.
 */
function nextPrefixedTail(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    lastRandom = pooledRandomBytes(6).readUIntBE(0, 6) % 2 ** 47;
  } else {
    lastRandom += 1;
  }
  return timeHex(lastMs) + lastRandom.toString(16).padStart(12, '0');
}
