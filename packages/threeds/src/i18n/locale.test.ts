import { describe, expect, it } from 'vitest';
import { chooseLocale } from './locale.ts';

describe('chooseLocale', () => {
  it.each([
    [undefined, 'en', 'en'],
    ['', 'en', 'en'],
    ['fr', 'fr', 'fr'],
    ['fr-CA', 'fr', 'fr-CA'],
    ['de-CH,de;q=0.9,en;q=0.8', 'de', 'de-CH'],
    ['es-MX', 'es', 'es-MX'],
    ['EN-gb', 'en', 'en-GB'],
  ])('%j → %s (numbers in %s)', (header, lang, formatLocale) => {
    expect(chooseLocale(header)).toEqual({ lang, formatLocale });
  });

  it('takes the best quality first, and the shopper’s order among equals', () => {
    expect(chooseLocale('en;q=0.5, de;q=0.9, fr;q=0.9').lang).toBe('de');
    expect(chooseLocale('ja, es;q=0.2').lang).toBe('es');
  });

  it('skips languages the page does not speak, and those refused with q=0; numbers stay in the shopper’s first locale', () => {
    expect(chooseLocale('pt-BR, it;q=0.9, fr;q=0.1')).toEqual({ lang: 'fr', formatLocale: 'pt-BR' });
    expect(chooseLocale('fr;q=0, de;q=0.5').lang).toBe('de');
    expect(chooseLocale('ja-JP, zh')).toEqual({ lang: 'en', formatLocale: 'ja-JP' });
  });

  it.each([
    ['nl-NL', '€ 123.456,78'],
    ['pt-BR', '€ 123.456,78'],
    ['da,en;q=0.5', '123.456,78 €'],
    ['de-CH', "EUR 123'456.78"],
  ])('formats an amount for %j in the shopper’s locale, on an English or translated page', (header, expected) => {
    const amount = new Intl.NumberFormat(chooseLocale(header).formatLocale, { style: 'currency', currency: 'EUR' }).format(123_456.78);
    expect(amount.replace(/\s/g, ' ')).toBe(expected);
  });

  it.each(['*', '*;q=0.5', 'garbage!!!', '😀', ';;;,,,', 'q=1', 'fr;q=abc', '-fr', 'fr--CA', 'toolonglanguage', 'x'.repeat(10_000), '\u0000fr'])(
    'falls back to English on %j',
    (header) => {
      expect(chooseLocale(header)).toEqual({ lang: 'en', formatLocale: 'en' });
    },
  );

  it('keeps only language, script and region for number formatting (no -u- extensions)', () => {
    expect(chooseLocale('de-DE-u-nu-arab').formatLocale).toBe('de-DE');
    expect(chooseLocale('es-Latn-ES-x-private').formatLocale).toBe('es-Latn-ES');
  });

  it('looks at a bounded part of a hostile header', () => {
    const header = `${Array.from({ length: 1000 }, () => 'xx').join(',')},fr`;
    expect(chooseLocale(header).lang).toBe('en');
  });
});

describe('chooseLocale reads headers as negotiator does', () => {
  it('tolerates whitespace and skips malformed qualities and wildcards', () => {
    expect(chooseLocale(' it , fr-CH;q=0.9 , en ; q = 0.8 , de;q=x, *;q=0.5')).toEqual({ lang: 'fr', formatLocale: 'it' });
  });

  it('takes a language with an out-of-range or stray parameter rather than dropping it', () => {
    expect(chooseLocale('fr;q=2').lang).toBe('fr');
    expect(chooseLocale('fr;q=0.5;q').lang).toBe('fr');
  });
});
