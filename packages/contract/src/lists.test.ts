import { describe, expect, it } from 'vitest';
import { EventSchema, ListEventsQuerySchema } from './events.ts';
import { ChargeListSchema, ListChargesQuerySchema, ListPageQuerySchema, ListRefundsQuerySchema } from './lists.ts';

/** The dotted paths of every issue, as the API reports the first in `error.parameter`. */
function failingPaths(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }): string[] {
  return result.error?.issues.map((issue) => issue.path.map(String).join('.')) ?? [];
}

describe('list page parameters', () => {
  it('defaults limit to 10 and takes 1..100 as digits or a number', () => {
    expect(ListPageQuerySchema.parse({})).toEqual({ limit: 10 });
    expect(ListPageQuerySchema.parse({ limit: '1' }).limit).toBe(1);
    expect(ListPageQuerySchema.parse({ limit: 100 }).limit).toBe(100);
  });

  it.each(['0', '101', '-1', '1.5', '1e2', '', 'ten', ['5', '6']])('refuses limit=%j on limit', (limit) => {
    expect(failingPaths(ListPageQuerySchema.safeParse({ limit }))).toEqual(['limit']);
  });

  it('takes one cursor; both together fail on ending_before', () => {
    expect(ListPageQuerySchema.parse({ starting_after: 'C1' })).toEqual({ limit: 10, starting_after: 'C1' });
    expect(ListPageQuerySchema.parse({ ending_before: 'C1' })).toEqual({ limit: 10, ending_before: 'C1' });
    expect(failingPaths(ListPageQuerySchema.safeParse({ starting_after: 'C1', ending_before: 'C2' }))).toEqual(['ending_before']);
  });

  it('refuses an empty or NUL-bearing cursor on its name', () => {
    expect(failingPaths(ListPageQuerySchema.safeParse({ starting_after: '' }))).toEqual(['starting_after']);
    expect(failingPaths(ListPageQuerySchema.safeParse({ ending_before: 'C\u00001' }))).toEqual(['ending_before']);
  });

  it('refuses unknown parameter names', () => {
    const result = ListRefundsQuerySchema.safeParse({ charge: 'C1', page: '2' });
    expect(result.error?.issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys', keys: ['page'], path: [] })]);
  });
});

describe('ListChargesQuerySchema', () => {
  it('parses every filter, as qs hands over a bracketed query', () => {
    const query = ListChargesQuerySchema.parse({
      limit: '25',
      status: 'PENDING',
      created: { gte: '1795342555', lt: '1795428955' },
      txn_reference: 'order-42',
      email: 'Ada@Example.COM',
      last4: '4242',
    });
    expect(query).toEqual({
      limit: 25,
      status: 'PENDING',
      created: { gte: 1795342555, lt: 1795428955 },
      txn_reference: 'order-42',
      email: 'ada@example.com',
      last4: '4242',
    });
  });

  it('takes a range open on either side', () => {
    expect(ListChargesQuerySchema.parse({ created: { gte: 5 } }).created).toEqual({ gte: 5 });
    expect(ListChargesQuerySchema.parse({ created: { lt: '5' } }).created).toEqual({ lt: 5 });
  });

  it.each([
    [{ status: 'pending' }, 'status'],
    [{ status: 'EXPIRED' }, 'status'],
    [{ created: '1795342555' }, 'created'],
    [{ created: { gte: 'yesterday' } }, 'created.gte'],
    [{ created: { lt: '-5' } }, 'created.lt'],
    [{ email: 'not-an-address' }, 'email'],
    [{ last4: '424' }, 'last4'],
    [{ last4: '42424' }, 'last4'],
    [{ last4: 'abcd' }, 'last4'],
    [{ txn_reference: 'x'.repeat(256) }, 'txn_reference'],
  ])('refuses %j on %s', (query, parameter) => {
    expect(failingPaths(ListChargesQuerySchema.safeParse(query))).toEqual([parameter]);
  });

  it('reports a bad limit first, then the double cursor', () => {
    const paths = failingPaths(ListChargesQuerySchema.safeParse({ limit: '0', starting_after: 'C1', ending_before: 'C2' }));
    expect(paths).toEqual(['limit', 'ending_before']);
  });
});

describe('ListEventsQuerySchema', () => {
  it('filters by name, charge and creation time', () => {
    expect(ListEventsQuerySchema.parse({ name: 'charge.captured', charge: 'C1', created: { gte: '10' } })).toEqual({
      limit: 10,
      name: 'charge.captured',
      charge: 'C1',
      created: { gte: 10 },
    });
  });

  it('refuses an unknown event name on name', () => {
    expect(failingPaths(ListEventsQuerySchema.safeParse({ name: 'charge.paid' }))).toEqual(['name']);
  });
});

const charge = {
  type: 'charge',
  id: 'C1234567890123456',
  currency: 'EUR',
  amount: 500,
  amount_captured: 0,
  amount_refunded: 0,
  fees: null,
  description: 'Order 42',
  txn_reference: null,
  threedSecure: { redirect: 'http://127.0.0.1/3ds/x', returnUrl: 'https://shop.example/return', status: 'PENDING', transStatus: null },
  status: 'PENDING',
  reason: null,
  token: {
    type: 'token',
    id: '6f1c2a9e-3b7d-4c55-9a0e-2d8f4b1e7c30',
    card: {
      fundingType: 'CREDIT',
      country: 'GB',
      last4Digits: '3220',
      type: 'VISA_CREDIT',
      brand: 'VISA',
      bank: 'UNKNOWN',
      name: 'Ada Lovelace',
      authorization: 'REQUIRED',
      addressLine1: null,
      addressLine2: null,
      addressCity: null,
      addressState: null,
      addressZip: null,
      addressCountry: null,
    },
    created: 1795342555,
  },
  created: 1795342555,
  mode: 'test',
  metadata: {},
};

describe('list envelope and events', () => {
  it('wraps a page of resources', () => {
    const page = { type: 'list', url: '/v2/charges', has_more: false, data: [charge] };
    expect(ChargeListSchema.parse(page)).toEqual(page);
    expect(failingPaths(ChargeListSchema.safeParse({ ...page, data: [{ ...charge, type: 'refund' }] }))).toEqual(['data.0.type']);
  });

  it('carries the charge after the change, and the refund only when there is one', () => {
    const event = { type: 'event', id: 'evt_1', name: 'charge.created', created: 1795342555, mode: 'test', data: { object: charge } };
    expect(EventSchema.parse(event)).toEqual(event);
    expect(failingPaths(EventSchema.safeParse({ ...event, id: 'ev_1' }))).toEqual(['id']);
    expect(failingPaths(EventSchema.safeParse({ ...event, data: { object: charge, refund: { type: 'refund' } } }))[0]).toMatch(/^data\.refund\./);
  });
});
