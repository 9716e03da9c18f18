import { LOCALES, type Locale } from '@payframe/contract/locales';
import type { Messages } from './en.ts';
import { MESSAGES } from './messages.ts';

/** The merchant's choice, else the first of the browser's languages we speak, else English. */
export function resolveLocale(requested: Locale | undefined, browserLanguages: readonly string[]): Locale {
  if (requested) return requested;
  for (const language of browserLanguages) {
    const primary = language.toLowerCase().split('-')[0];
    const match = LOCALES.find((locale) => locale === primary);
    if (match) return match;
  }
  return 'en';
}

export function messagesFor(locale: Locale): Messages {
  return MESSAGES[locale];
}
