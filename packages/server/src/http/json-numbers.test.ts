import { describe, expect, it } from 'vitest';
import { numbersAsWritten } from './json-numbers.ts';

const parsed = (json: string): unknown => JSON.parse(numbersAsWritten(json));

describe('JSON numbers as written', () => {
  it.each([
    ['{"amount":1e3}', { amount: '1e3' }],
    ['{"amount":1.0}', { amount: '1.0' }],
    ['{"amount": 50.0 }', { amount: '50.0' }],
    ['{"card":{"exp_month":7.0,"exp_year":2.03e3}}', { card: { exp_month: '7.0', exp_year: '2.03e3' } }],
    ['{"a":-1.5E+2,"b":[1E2, 0.5]}', { a: '-1.5E+2', b: ['1E2', '0.5'] }],
  ])('keeps a fraction or exponent as its text: %s', (json, expected) => {
    expect(parsed(json)).toStrictEqual(expected);
  });

  it.each(['{"amount":1000}', '{"amount":"1000"}', '{"amount":-5,"b":[0,10]}', '{"x":true,"y":null}'])('leaves integers and other values alone: %s', (json) => {
    expect(numbersAsWritten(json)).toBe(json);
  });

  it('leaves numbers inside strings alone, escaped quotes included', () => {
    const json = '{"description":"Total: 1.5e3, [2.0]","note":"say \\": 1.5\\"","amount":2.5}';
    expect(parsed(json)).toStrictEqual({ description: 'Total: 1.5e3, [2.0]', note: 'say ": 1.5"', amount: '2.5' });
  });
});
