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

  it('skips languages the page does not speak, and those refused with q=0', () => {
    expect(chooseLocale('pt-BR, it;q=0.9, fr;q=0.1')).toEqual({ lang: 'fr', formatLocale: 'fr' });
    expect(chooseLocale('fr;q=0, de;q=0.5').lang).toBe('de');
    expect(chooseLocale('ja-JP, zh')).toEqual({ lang: 'en', formatLocale: 'en' });
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
    expect(chooseLocale(' it , fr-CH;q=0.9 , en ; q = 0.8 , de;q=x, *;q=0.5')).toEqual({ lang: 'fr', formatLocale: 'fr-CH' });
  });

  it('takes a language with an out-of-range or stray parameter rather than dropping it', () => {
    expect(chooseLocale('fr;q=2').lang).toBe('fr');
    expect(chooseLocale('fr;q=0.5;q').lang).toBe('fr');
  });
});
