import { randomInt, randomUUID } from 'node:crypto';

export type IdGenerator = { charge(): string; uuid(): string };

/** Charge ids are `C` and 20 CSPRNG digits; tokens and refunds are UUIDs. */
export const randomIds: IdGenerator = {
  charge: () => `C${String(randomInt(1e10)).padStart(10, '0')}${String(randomInt(1e10)).padStart(10, '0')}`,
  uuid: () => randomUUID(),
};
