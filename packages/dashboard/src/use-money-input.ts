import { type AmountReading, formatAmountInput, parseLocaleAmount } from '@payframe/contract/money-parse';
import { useState } from 'preact/hooks';
import { locale } from './format.ts';

export type MoneyInput = { text: string; setText: (text: string) => void; reading: AmountReading };

/**
 * A money field in the browser's locale: it starts at `initial` minor units written as the locale
 * writes numbers, and reads what is typed the same way (contract's money-parse), refusing anything
 * it could read as another amount.
 */
export function useMoneyInput(initial: number, currency: string): MoneyInput {
  const [text, setText] = useState(() => formatAmountInput(initial, currency, locale()));
  return { text, setText, reading: parseLocaleAmount(text, currency, locale()) };
}
