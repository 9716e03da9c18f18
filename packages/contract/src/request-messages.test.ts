import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CreateChargeBodySchema } from './charges.ts';
import { ListEventsQuerySchema } from './events.ts';
import { ListChargesQuerySchema, ListPageQuerySchema, ListRefundsQuerySchema } from './lists.ts';
import { CreateRefundBodySchema } from './refunds.ts';
import { AdvanceClockBodySchema, AuthenticateBodySchema } from './test-helpers.ts';
import { CreateTokenBodySchema, ResourceIdParamsSchema } from './tokens.ts';
import { CreateWebhookEndpointBodySchema, ResendEventBodySchema } from './webhooks.ts';

/**
 * docs/api.md "Limits": errors name the parameter but never repeat its value. The API sends each
 * issue's message as is, so every parameter of every request schema, given each wrong value, must
 * say what it wants in plain words: not zod's own wording (which quotes patterns and types) and
 * not the value sent.
 */
type Params = Record<string, unknown>;
const REQUESTS: Array<[string, z.ZodType, Params]> = [
  [
    'token',
    CreateTokenBodySchema,
    {
      card: { number: '4242424242424242', cvc: '123', exp_month: '12', exp_year: '2030', name: 'Ada' },
      address: { address_line1: 'a', address_line2: 'b', city: 'c', state: 'd', zipcode: 'e', country: 'FR' },
      shopper: { ip: '203.0.113.7', session_id: 's', email: 'ada@example.com' },
    },
  ],
  [
    'charge',
    CreateChargeBodySchema,
    { token: 't', amount: '500', currency: 'eur', description: 'd', txn_reference: 'r', return_url: 'https://shop.example/r' },
  ],
  ['refund', CreateRefundBodySchema, { amount: '1' }],
  ['clock', AdvanceClockBodySchema, { advance_seconds: '1' }],
  ['authenticate', AuthenticateBodySchema, { result: 'success' }],
  ['page', ListPageQuerySchema, { limit: '1', starting_after: 'a' }],
  [
    'charges',
    ListChargesQuerySchema,
    { limit: '1', status: 'PENDING', created: { gte: '1', lt: '2' }, txn_reference: 'r', email: 'a@example.com', last4: '4242' },
  ],
  ['refunds', ListRefundsQuerySchema, { limit: '1', ending_before: 'a', charge: 'c' }],
  ['events', ListEventsQuerySchema, { limit: '1', name: 'charge.created', charge: 'c', created: { gte: '1', lt: '2' } }],
  ['webhook endpoint', CreateWebhookEndpointBodySchema, { url: 'https://shop.example/hooks', events: ['charge.created'], description: 'd' }],
  ['resend', ResendEventBodySchema, { endpoint: 'we_1' }],
  ['path', ResourceIdParamsSchema, { id: 'x' }],
];

/** Each a value no parameter takes, and easy to spot in a message. */
const WRONG: unknown[] = [12.5, 7, -3, true, null, {}, [], ['zz'], 'zz-9.5e3', '1e3', '0x1F', 'zz'.repeat(1500), 'zz\u0000'];

const ZOD_WORDING = /Invalid (input|string|option|union|key)|Too (big|small)|expected|received|pattern|\/\^/;

/** Every leaf and object path of the valid parameters. */
function paths(params: Params, prefix: string[] = []): string[][] {
  return Object.entries(params).flatMap(([key, value]) => {
    const path = [...prefix, key];
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? [path, ...paths(value as Params, path)] : [path];
  });
}

function withValue(params: Params, path: string[], value: unknown): Params {
  const copy = structuredClone(params);
  let target = copy;
  for (const segment of path.slice(0, -1)) target = target[segment] as Params;
  target[path.at(-1)!] = value;
  return copy;
}

describe.each(REQUESTS)('%s parameters', (_name, schema, valid) => {
  it('the valid parameters parse', () => {
    expect(schema.safeParse(valid).success).toBe(true);
  });

  it.each(paths(valid).map((path) => [path.join('.'), path] as const))('%s: a wrong value is refused in plain words', (_path, path) => {
    for (const value of WRONG) {
      const result = schema.safeParse(withValue(valid, path, value));
      for (const issue of result.error?.issues ?? []) {
        expect(issue.message, JSON.stringify(value)).not.toMatch(ZOD_WORDING);
        expect(issue.message, JSON.stringify(value)).not.toContain('zz');
      }
    }
  });
});
