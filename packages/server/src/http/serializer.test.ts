import { ChargeSchema, DashboardChargeListSchema, EventSchema } from '@payframe/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pickedText, serializerCompiler } from './serializer.ts';

const compile = (schema: z.ZodType) => serializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' }) as (data: unknown) => string;

describe('the response serializer', () => {
  it('writes only the declared fields, at every depth, with nulls and arrays', () => {
    const schema = z.object({
      id: z.string(),
      note: z.string().nullable(),
      tag: z.string().optional(),
      items: z.array(z.object({ n: z.number().int() })),
      inner: z.object({ kind: z.enum(['a', 'b']) }).nullable(),
    });
    const data = { id: 'x', note: null, items: [{ n: 1, secret: 's' }], inner: { kind: 'a', hash: 'h' }, card_secret: 'never' };
    expect(JSON.parse(compile(schema)(data))).toEqual({ id: 'x', note: null, items: [{ n: 1 }], inner: { kind: 'a' } });
  });

  it('leaves what it cannot follow to zod, which still checks the response', () => {
    const union = z.object({ value: z.union([z.string(), z.number()]) });
    expect(compile(union)({ value: 1, extra: true })).toBe('{"value":1}');
    expect(() => compile(union)({ value: true })).toThrow();
  });

  it('copies a record (metadata) key by key, a `__proto__` key included as data', () => {
    const withMetadata = z.object({ metadata: z.record(z.string(), z.string()) });
    const metadata = JSON.parse('{"order":"42","__proto__":"x"}') as Record<string, string>;
    expect(compile(withMetadata)({ metadata, other: 1 })).toBe('{"metadata":{"order":"42","__proto__":"x"}}');
  });

  it('follows the contract’s charge without zod: it picks, it does not check', () => {
    // Zod would refuse this partial charge; the picker copies what is there.
    expect(compile(ChargeSchema)({ token: { card: {}, vault: 'x' }, threedSecure: {} })).toBe('{"threedSecure":{},"token":{"card":{}}}');
  });

  it('writes the text JSON.stringify would write of the picked fields: escapes, nulls, extra fields and lists', () => {
    const charge = JSON.parse(CHARGE) as Record<string, unknown>;
    const odd = {
      ...charge,
      description: 'line\nbreak "quoted" \u2028 ünïcode \ud83d\ude00 </script>',
      fees: 15,
      metadata: JSON.parse('{"__proto__":"x","a\\"b":"\\u0000","order":"42"}'),
      vault: 'never written',
      reason: undefined,
    };
    const samples: [z.ZodType, unknown][] = [
      [ChargeSchema, charge],
      [ChargeSchema, odd],
      [ChargeSchema, { ...charge, token: { ...(charge.token as object), card: { last4Digits: '4242', extra: 1 } } }],
      [
        DashboardChargeListSchema,
        {
          type: 'list',
          has_more: false,
          data: [
            { ...charge, email: 'a@b.example' },
            { ...odd, email: '' },
          ],
        },
      ],
      [EventSchema, { type: 'event', id: 'evt_1', name: 'charge.captured', created: 1, mode: 'test', data: { object: odd } }],
    ];
    for (const [schema, data] of samples) expect(compile(schema)(data)).toBe(pickedText(schema, data));
  });
});

const CHARGE = `{"type":"charge","id":"C179581404707456876012798316606762","currency":"EUR","amount":500,"amount_captured":0,"amount_refunded":0,"fees":null,"description":"Bench order","txn_reference":null,"threedSecure":{"redirect":"http://127.0.0.1:24606/3d-secure/C1?paRes=lLac","returnUrl":"https://shop.example/return","status":"NOT_AVAILABLE","transStatus":null},"status":"PENDING","reason":null,"token":{"type":"token","id":"01a21edb-bd59-70d4-91ae-1f81a2a8cd9c","card":{"fundingType":"CREDIT","country":"US","last4Digits":"4242","type":"VISA_CREDIT","brand":"VISA","bank":"PAYFRAME TEST BANK US","name":"Ada Lovelace","authorization":"NOT_AVAILABLE","addressLine1":null,"addressLine2":null,"addressCity":null,"addressState":null,"addressZip":null,"addressCountry":null},"created":1795814047},"created":1795814047,"mode":"test","metadata":{}}`;
