import { TEST_CARDS } from '@payframe/contract/test-cards';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { FRAME_SHAPES } from './frame-shapes.ts';
import { TokenRequestSchema } from './options.ts';
import { check, type ShapeOf } from './shape.ts';
import { shapeOf } from './shape-of.ts';
import { ConnectMessageSchema, LaunchParamsSchema, ParentMessageSchema } from './to-frame.ts';

const NONCE = '0123456789abcdef0123456789abcdef';
const CONNECT = { type: 'payframe:connect', nonce: NONCE, publishableKey: 'pk_test_abc', options: {} };
const STYLE = { base: { color: '#1a1a1a', fontSize: '1.1rem' }, placeholder: { fontStyle: 'italic' } };

/** Each schema the frame parses with, and values it must take or refuse exactly as zod does. */
const CASES: Array<[string, z.ZodMiniType, ShapeOf<unknown>, unknown[]]> = [
  [
    'launch params',
    LaunchParamsSchema,
    FRAME_SHAPES.launchParams,
    [
      { origin: 'https://shop.example', nonce: NONCE },
      { origin: 'http://localhost:3000', nonce: NONCE, extra: 'dropped' },
      { origin: 'https://shop.example/pay', nonce: NONCE },
      { origin: 'javascript:alert(1)', nonce: NONCE },
      { origin: 'https://shop.example', nonce: NONCE.toUpperCase() },
      { origin: 'https://shop.example' },
      {},
      null,
      'origin=x',
    ],
  ],
  [
    'connect',
    ConnectMessageSchema,
    FRAME_SHAPES.connect,
    [
      CONNECT,
      { ...CONNECT, options: { locale: 'de', style: STYLE, fields: { email: true, address: 'full' }, disabled: false } },
      { ...CONNECT, options: { locale: 'it' } },
      { ...CONNECT, options: { theme: 'dark' } },
      { ...CONNECT, options: { style: { base: { color: 'URL(https://evil.example)' } } } },
      { ...CONNECT, options: { style: { base: { color: 'red;display:none' } } } },
      { ...CONNECT, options: { style: { base: { backgroundImage: 'image-set("x.png" 1x)' } } } },
      { ...CONNECT, options: { style: { hover: { color: 'red' } } } },
      { ...CONNECT, options: { style: { placeholder: { fontSize: '20px' } } } },
      { ...CONNECT, options: { style: { base: { color: 1 } } } },
      { ...CONNECT, options: { fields: { address: 'some' } } },
      { ...CONNECT, options: { fields: { email: 'yes' } } },
      { ...CONNECT, options: { disabled: undefined } },
      { ...CONNECT, publishableKey: 'sk_test_abc' },
      { ...CONNECT, type: 'payframe:options' },
      { ...CONNECT, options: undefined },
      { ...CONNECT, extra: true },
      { ...CONNECT, options: { toString: 'x' } },
      { ...CONNECT, options: JSON.parse('{"__proto__": {"locale": "fr"}}') },
      [CONNECT],
    ],
  ],
  [
    'channel messages',
    ParentMessageSchema,
    FRAME_SHAPES.parentMessage,
    [
      { type: 'payframe:options', options: { locale: 'fr' } },
      { type: 'payframe:options', options: { locale: 'xx' } },
      { type: 'payframe:focus' },
      { type: 'payframe:clear', more: 1 },
      { type: 'payframe:tokenize', id: 3, request: { anything: true } },
      { type: 'payframe:tokenize', id: 3 },
      { type: 'payframe:tokenize', id: '3', request: {} },
      { type: 'payframe:tokenize', id: Number.NaN, request: {} },
      { type: 'payframe:tokenize', id: Number.POSITIVE_INFINITY, request: {} },
      { type: 'payframe:hello' },
      { type: 'payframe:focus', toString: 'x' },
      undefined,
      42,
    ],
  ],
  [
    'token request',
    TokenRequestSchema,
    FRAME_SHAPES.tokenRequest,
    [
      {},
      { shopper: { email: 'ada@example.com', sessionId: 's1' } },
      { shopper: { email: 'a'.repeat(254) } },
      { shopper: { email: 'a'.repeat(255) } },
      { shopper: { sessionId: '' } },
      { shopper: { email: 42 } },
      { shopper: { phone: '1' } },
      { address: { line1: '1 High St', country: 'GB' } },
      { address: { line1: 1 } },
      { address: null },
      { card: { number: TEST_CARDS.visa.number } },
    ],
  ],
];

describe.each(CASES)('the frame’s check of %s', (_name, schema, shape, values) => {
  it.each(values.map((value) => [JSON.stringify(value) ?? String(value), value]))('agrees with zod on %s', (_label, value) => {
    const expected = schema.safeParse(value);
    const actual = check(shape, value);
    expect(actual.success).toBe(expected.success);
    if (actual.success && expected.success) expect(actual.data).toEqual(expected.data);
  });
});

describe('check', () => {
  it('names the path and the problem of the first issue', () => {
    expect(check(FRAME_SHAPES.tokenRequest, { shopper: { email: 42 } })).toEqual({
      success: false,
      issue: { path: ['shopper', 'email'], message: 'must be a string' },
    });
    expect(check(FRAME_SHAPES.tokenRequest, { shopper: { phone: '1' } })).toMatchObject({ issue: { path: ['shopper', 'phone'], message: 'is not allowed' } });
  });
});

describe('shapeOf', () => {
  it.each([
    ['an e-mail format', z.email()],
    ['an array', z.array(z.string())],
    ['a number check', z.number().check(z.positive())],
    ['a loose object', z.looseObject({})],
    ['a transform', z.pipe(z.string(), z.transform(Number))],
  ])('refuses to describe %s, which it could not check faithfully', (_case, schema) => {
    expect(() => shapeOf(schema)).toThrow(/not supported/);
  });
});
