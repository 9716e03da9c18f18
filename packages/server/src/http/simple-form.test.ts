import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { BODY_QS_OPTIONS, parseBracketed } from './body-parsers.ts';
import { parseSimpleForm } from './simple-form.ts';

const NAMES = [
  'card[number]',
  'card%5Bcvc%5D',
  'card%5bexp_month%5d',
  'card%5Bname]',
  'shopper[ip%5d',
  'amount',
  'a_b',
  'card',
  'Card[Name]',
  'shopper[email]',
  'metadata[order_1]',
];
const ODD_NAMES = [
  'toString',
  '__proto__',
  'constructor[prototype]',
  'card[toString]',
  'a[0]',
  'a[]',
  'b[c][d]',
  'x.y',
  '',
  '0',
  '%E2%82%AC',
  'na+me',
  'n%2Bm',
  'card[',
  'card]',
  'ca%ZZrd',
];
const VALUES = ['1', 'a+b', 'ada%40example.com', '=', 'x=y', '', '%E2%82%AC', '4242+4242', '%2B', '[x]', '%5B%5D'];
const ODD_VALUES = ['%', '50%off', '%E0%A4%A', '%ED%A0%80', '%C0%AE', '%FF', '+', '4242 4242'];

/** A deterministic sequence, so that a failure names the body that made it. */
function* bodies(count: number): Generator<string> {
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  for (let i = 0; i < count; i++) {
    const pick = (common: string[], odd: string[], oddOneIn: number) => (next(oddOneIn) === 0 ? odd[next(odd.length)]! : common[next(common.length)]!);
    const parts = Array.from({ length: 1 + next(6) }, () => {
      const name = pick(NAMES, ODD_NAMES, 10);
      return next(20) === 0 ? name : `${name}=${pick(VALUES, ODD_VALUES, 6)}`;
    });
    yield parts.join(next(10) === 0 ? '&&' : '&');
  }
}

/** qs's objects have no prototype (BODY_QS_OPTIONS); the simple parser's are plain. Fields alone are compared. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

function qsOrError(body: string): unknown {
  try {
    return plain(qs.parse(body, BODY_QS_OPTIONS));
  } catch (error) {
    return error;
  }
}

describe('the simple form parser in front of qs', () => {
  it('gives exactly what qs gives whenever it answers, and leaves every other body to qs', () => {
    let answered = 0;
    for (const body of bodies(20_000)) {
      const simple = parseSimpleForm(body);
      if (simple === undefined) continue;
      answered += 1;
      expect(simple, body).toStrictEqual(qsOrError(body));
    }
    // It must answer the common bodies, or it proves nothing and buys nothing.
    expect(answered).toBeGreaterThan(1_000);
  });

  it('answers a token request’s body, and leaves repeats, arrays, deeper names and prototype names to qs', () => {
    const token = 'card%5Bnumber%5D=4242424242424242&card%5Bcvc%5D=123&card%5Bname%5D=Ada+Lovelace&shopper%5Bemail%5D=ada%40example.com';
    expect(parseSimpleForm(token)).toStrictEqual({
      card: { number: '4242424242424242', cvc: '123', name: 'Ada Lovelace' },
      shopper: { email: 'ada@example.com' },
    });
    for (const body of [
      'a=1&a=2',
      'a=1&a[b]=2',
      'a[b]=1&a=2',
      'a[b]=1&a[b]=2',
      'a[]=1',
      'a[0]=1',
      'a[b][c]=1',
      'toString=1',
      'a[__proto__]=1',
      'a',
      '=1',
      'a=%ZZ',
      'a=%ED%A0%80',
    ]) {
      expect(parseSimpleForm(body), body).toBeUndefined();
    }
    expect(plain(parseBracketed('a=1&a=2'))).toStrictEqual({ a: ['1', '2'] });
  });
});
