import { ChargeSchema } from '@payframe/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler } from './serializer.ts';

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
});
