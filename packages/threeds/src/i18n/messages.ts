import type { Locale } from '@payframe/contract/locales';
import { de } from './de.ts';
import { en, type Messages } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';

const MESSAGES: Record<Locale, Messages> = { en, fr, de, es };

export function messagesFor(locale: Locale): Messages {
  return MESSAGES[locale];
}

export type { Messages };
