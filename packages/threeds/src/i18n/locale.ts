import { LOCALES, type Locale } from '@payframe/contract/locales';
import Negotiator from 'negotiator';

/** The page's language, and the locale its numbers are formatted in: the shopper's, region kept (de-CH, nl-NL). */
export type LocaleChoice = { lang: Locale; formatLocale: string };

const ENGLISH: LocaleChoice = { lang: 'en', formatLocale: 'en' };

/** Headers are attacker-controlled: only this much of one is ever looked at. */
const MAX_HEADER_LENGTH = 1024;
/** negotiator is lenient about tags: only well-formed language ranges reach Intl. */
const LANGUAGE_RANGE = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * The page's language: the first language of Accept-Language (by quality, then by order:
 * negotiator's reading of RFC 9110 section 12.5.4) that the page speaks. Its numbers: the shopper's
 * own first language that Intl formats, spoken by the page or not (an amount in `nl-NL` reads
 * `€ 123.456,78` on an English page). Missing, `*` only, unknown or malformed → English; never throws.
 */
export function chooseLocale(acceptLanguage: string | undefined): LocaleChoice {
  if (!acceptLanguage) return ENGLISH;
  const header = acceptLanguage.slice(0, MAX_HEADER_LENGTH);
  let lang: Locale | undefined;
  let formatLocale: string | undefined;
  for (const tag of new Negotiator({ headers: { 'accept-language': header } }).languages()) {
    if (!LANGUAGE_RANGE.test(tag)) continue;
    formatLocale ??= formattingLocale(tag);
    const primary = tag.split('-')[0]!.toLowerCase();
    lang ??= LOCALES.find((locale) => locale === primary);
    if (lang && formatLocale) break;
  }
  return { lang: lang ?? 'en', formatLocale: formatLocale ?? lang ?? 'en' };
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
