import { describe, expect, it } from 'vitest';
import { CardOptionsSchema, StyleSchema } from './options.ts';

describe('StyleSchema (the frame’s own check)', () => {
  it('accepts allowed properties with plain values', () => {
    const style = { base: { color: '#1a1a1a', fontSize: '1.1rem', fontFamily: "'Inter', sans-serif" }, focus: { color: 'rgb(0 0 0 / 80%)' } };
    expect(StyleSchema.parse(style)).toEqual(style);
  });

  it.each([
    ['url()', { base: { color: 'URL(https://evil.example)' } }],
    ['image-set hidden in another property', { base: { backgroundImage: 'image-set("x.png" 1x)' } }],
    ['a semicolon', { base: { color: 'red;display:none' } }],
    ['braces', { base: { color: 'red}body{display:none' } }],
    ['an unknown state', { hover: { color: 'red' } }],
    ['a non-string value', { base: { color: 1 } }],
  ])('refuses %s', (_case, style) => {
    expect(StyleSchema.safeParse(style).success).toBe(false);
  });
});

describe('CardOptionsSchema', () => {
  it('refuses unknown options and locales', () => {
    expect(CardOptionsSchema.safeParse({ locale: 'it' }).success).toBe(false);
    expect(CardOptionsSchema.safeParse({ theme: 'dark' }).success).toBe(false);
    expect(CardOptionsSchema.safeParse({ fields: { address: 'full', email: true }, disabled: true }).success).toBe(true);
  });
});
