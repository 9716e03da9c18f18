import { randomBytes, randomInt, randomUUID } from 'node:crypto';

export type IdGenerator = { charge(): string; uuid(): string; prefixed(prefix: IdPrefix): string };

/** Events, webhook endpoints and deliveries: a prefix that names the kind, then 24 hex characters. */
export type IdPrefix = 'evt' | 'we' | 'whd';

/** Charge ids are `C` and 20 CSPRNG digits; tokens and refunds are UUIDs. */
export const randomIds: IdGenerator = {
  charge: () => `C${String(randomInt(1e10)).padStart(10, '0')}${String(randomInt(1e10)).padStart(10, '0')}`,
  uuid: () => randomUUID(),
  prefixed: (prefix) => `${prefix}_${randomBytes(12).toString('hex')}`,
};
