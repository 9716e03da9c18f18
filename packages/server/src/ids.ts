import { randomBytes, randomInt, randomUUID } from 'node:crypto';

export type IdGenerator = { charge(): string; uuid(): string; prefixed(prefix: IdPrefix): string };

/** Events, webhook endpoints and deliveries: a prefix that names the kind, then 24 hex characters. */
export type IdPrefix = 'evt' | 'we' | 'whd';

const PREFIXED_BYTES = 12;
/** CSPRNG bytes drawn for 256 ids at a time, as Node pools those of randomUUID and randomInt: a call per event cost more. */
const POOL_SIZE = PREFIXED_BYTES * 256;
let pool = Buffer.alloc(0);
let used = 0;

function randomHex(): string {
  if (used + PREFIXED_BYTES > pool.length) {
    pool = randomBytes(POOL_SIZE);
    used = 0;
  }
  const hex = pool.toString('hex', used, used + PREFIXED_BYTES);
  used += PREFIXED_BYTES;
  return hex;
}

/** Charge ids are `C` and 20 CSPRNG digits; tokens and refunds are UUIDs. */
export const randomIds: IdGenerator = {
  charge: () => `C${String(randomInt(1e10)).padStart(10, '0')}${String(randomInt(1e10)).padStart(10, '0')}`,
  uuid: () => randomUUID(),
  prefixed: (prefix) => `${prefix}_${randomHex()}`,
};
