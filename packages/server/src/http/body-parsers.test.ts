import { PayframeError } from '@payframe/contract';
import { describe, expect, it } from 'vitest';
import { inspectJson, parseBracketed, parseQueryString, registerJsonParser } from './body-parsers.ts';

/** Parsed forms are objects without a prototype; their fields alone are compared. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

function refusal(work: () => unknown): { code: string; parameter: string | undefined } | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    if (!(error instanceof PayframeError)) throw error;
    return { code: error.code, parameter: error.parameter };
  }
}

describe('names qs would drop without a word', () => {
  it('keeps names of Object.prototype as names, on objects without a prototype, for the schemas to refuse', () => {
    const parsed = parseBracketed('toString=1&hasOwnProperty=2&constructor[prototype][x]=3&card[valueOf]=4');
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    // toEqual: toStrictEqual compares the `constructor` fields as each object's class.
    expect(plain(parsed)).toEqual({ toString: '1', hasOwnProperty: '2', constructor: { prototype: { x: '3' } }, card: { valueOf: '4' } });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('refuses __proto__ anywhere in a name, encoded or not, and a value without a name', () => {
    expect(refusal(() => parseBracketed('amount=5&__proto__[x]=1'))).toEqual({ code: 'PARAMETER_UNKNOWN', parameter: '__proto__.x' });
    expect(refusal(() => parseBracketed('card[%5F_proto__]=1'))).toEqual({ code: 'PARAMETER_UNKNOWN', parameter: 'card.__proto__' });
    expect(refusal(() => parseBracketed('amount=5&=1'))).toEqual({ code: 'PARAMETER_UNKNOWN', parameter: '' });
    expect(plain(parseBracketed('amount=5&&currency=EUR'))).toStrictEqual({ amount: '5', currency: 'EUR' });
  });

  it('reads a query string by the same rules, its refusal kept for the route to answer', () => {
    for (const query of ['__proto__[x]=1', '=1', 'txn_reference=%FF', 'a[b][c][d][e][f][g]=1']) {
      const parsed = parseQueryString(query);
      expect(Object.keys(parsed), query).toEqual([]);
      expect(Object.getOwnPropertySymbols(parsed), query).toHaveLength(1);
    }
    expect(plain(parseQueryString('limit=5&created[gte]=1'))).toStrictEqual({ limit: '5', created: { gte: '1' } });
  });

  it('refuses JSON that is invalid as sent, even where quoting its numbers would make it valid', async () => {
    const { default: fastify } = await import('fastify');
    const app = fastify();
    registerJsonParser(app);
    app.post('/', (request) => request.body);
    const post = (payload: string) => app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload });
    expect((await post('{"a": 1, 1.5: "x"}')).statusCode).toBe(400);
    expect((await post('{"amount": 1.5}')).json()).toEqual({ amount: '1.5' });
    await app.close();
  });

  it('finds a JSON body’s __proto__ key and its depth in one walk', () => {
    expect(inspectJson(JSON.parse('{"card":{"__proto__":{"x":1}}}'))).toEqual({ depth: 3, protoKey: 'card.__proto__' });
    expect(inspectJson(JSON.parse('{"events":[{"__proto__":1}]}'))).toEqual({ depth: 3, protoKey: 'events.__proto__' });
    expect(inspectJson({ a: { b: 1 } })).toEqual({ depth: 2, protoKey: undefined });
  });
});

describe('metadata in a form body', () => {
  it('takes a key made only of digits as a key, as JSON does, percent-encoded or not', () => {
    expect(plain(parseBracketed('metadata[0]=x&amount=5'))).toStrictEqual({ metadata: { 0: 'x' }, amount: '5' });
    expect(plain(parseBracketed('metadata%5B12%5D=y&metadata[order]=z'))).toStrictEqual({ metadata: { 12: 'y', order: 'z' } });
  });

  it('takes digit keys past the array limit as keys, and still counts every parameter', () => {
    expect(plain(parseBracketed('metadata[123]=v&metadata[5000]=w&amount=5'))).toStrictEqual({ amount: '5', metadata: { 123: 'v', 5000: 'w' } });
    const many = Array.from({ length: 201 }, (_, i) => `metadata[${i}]=x`).join('&');
    expect(refusal(() => parseBracketed(many))).toEqual({ code: 'PARAMETER_INVALID', parameter: undefined });
    // A plain `metadata` beside bracketed keys: qs's reading of both, which the schema refuses, or its limit.
    expect(refusal(() => parseBracketed('metadata=x&metadata[123]=v'))).toEqual({ code: 'PARAMETER_INVALID', parameter: undefined });
  });

  it('keeps a list sent as one a list, for the schema to refuse, and leaves other lists alone', () => {
    expect(plain(parseBracketed('metadata[]=x'))).toStrictEqual({ metadata: ['x'] });
    expect(plain(parseBracketed('metadata[0]=x&metadata[]=y'))).toStrictEqual({ metadata: ['x', 'y'] });
    expect(plain(parseBracketed('events[0]=a&events[1]=b&metadata[7]=c'))).toStrictEqual({ events: ['a', 'b'], metadata: { 7: 'c' } });
  });
});
