// Every locale's texts in one table. The widget build evaluates this module and bundles only the
// data (scripts/build.ts), each locale's keys written once.
import type { Locale } from '@payframe/contract/locales';
import { de } from './de.ts';
import { en, type Messages } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';

export const MESSAGES: Record<Locale, Messages> = { en, fr, de, es };
