import { describe, expect, it } from 'vitest';
import type { CardOptions } from '../protocol/options.ts';
import { checkOptions } from './check-options.ts';

describe('checkOptions', () => {
  it('accepts the documented options', () => {
    const options: CardOptions = {
      locale: 'de',
      style: { base: { color: '#333', fontFamily: '"Inter", sans-serif', fontSize: '18px' }, placeholder: { color: 'rgb(90, 90, 90)' } },
      fields: { email: true, address: 'full' },
      disabled: false,
    };
    expect(checkOptions(options)).toBe(options);
  });

  it.each([
    ['an unknown option', { colour: 'red' }, /unknown option "colour"/],
    ['an unsupported locale', { locale: 'it' }, /locale must be one of en, fr, de, es/],
    ['an unknown style state', { style: { hover: { color: 'red' } } }, /style.hover is not one of/],
    ['a property off the allow-list', { style: { base: { background: 'red' } } }, /style.base.background is not allowed/],
    ['a placeholder property only inputs take', { style: { placeholder: { fontSize: '20px' } } }, /style.placeholder.fontSize is not allowed/],
    ['url()', { style: { base: { color: 'url(https://evil.example/leak)' } } }, /without url\(\)/],
    ['a way out of the declaration', { style: { base: { color: 'red; background: blue' } } }, /without url\(\)/],
    ['an unknown field', { fields: { phone: true } }, /unknown field option "fields.phone"/],
    ['a non-boolean email field', { fields: { email: 'yes' } }, /fields.email must be true or false/],
    ['a non-boolean disabled', { disabled: 1 }, /disabled must be true or false/],
    ['an unknown address mode', { fields: { address: 'street' } }, /fields.address must be one of none, postal, full/],
  ])('refuses %s', (_case, options, message) => {
    expect(() => checkOptions(options as CardOptions)).toThrow(message);
  });
});
