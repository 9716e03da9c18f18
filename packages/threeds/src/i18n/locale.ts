/** The languages the hosted page speaks; anything else is shown in English. */
export const LOCALES = ['en', 'fr', 'de', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/** The page's language, and the locale its numbers are formatted in (the shopper's region kept: de-CH, fr-CA). */
export type LocaleChoice = { lang: Locale; formatLocale: string };

const ENGLISH: LocaleChoice = { lang: 'en', formatLocale: 'en' };

/** Headers are attacker-controlled: only this much of one is ever looked at. */
const MAX_HEADER_LENGTH = 1024;
const MAX_RANGES = 32;
const LANGUAGE_RANGE = /^(?:[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)$/;
const QUALITY = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

type LanguageRange = { tag: string; quality: number };

/**
 * The first language of Accept-Language (RFC 9110 §12.5.4: by quality, then by order) that the
 * page speaks. Missing, `*` only, unknown or malformed → English; never throws.
 */
export function chooseLocale(acceptLanguage: string | undefined): LocaleChoice {
  for (const { tag } of parseAcceptLanguage(acceptLanguage)) {
    if (tag === '*') continue;
    const primary = tag.split('-')[0]!.toLowerCase();
    const lang = LOCALES.find((locale) => locale === primary);
    if (lang) return { lang, formatLocale: formattingLocale(tag) ?? lang };
  }
  return ENGLISH;
}

/** Well-formed, acceptable (q > 0) ranges, best first; malformed entries are skipped. */
export function parseAcceptLanguage(header: string | undefined): LanguageRange[] {
  if (!header) return [];
  const ranges: LanguageRange[] = [];
  for (const part of header.slice(0, MAX_HEADER_LENGTH).split(',').slice(0, MAX_RANGES)) {
    const [tag = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    if (!LANGUAGE_RANGE.test(tag)) continue;
    let quality = 1;
    let wellFormed = true;
    for (const parameter of parameters) {
      const match = QUALITY.exec(parameter.replace(/\s+/g, ''));
      if (match) quality = Number(match[1]);
      else wellFormed = false;
    }
    if (wellFormed && quality > 0) ranges.push({ tag, quality });
  }
  // Array.prototype.sort is stable: equal qualities keep the shopper's order.
  return ranges.sort((a, b) => b.quality - a.quality);
}

/** Language, script and region only: extensions (`-u-nu-…`) and private use do not reach Intl. */
function formattingLocale(tag: string): string | undefined {
  try {
    const { language, script, region } = new Intl.Locale(tag);
    const base = [language, script, region].filter(Boolean).join('-');
    return Intl.NumberFormat.supportedLocalesOf(base).length > 0 ? base : undefined;
  } catch {
    return undefined;
  }
}
