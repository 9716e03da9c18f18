import { brandRules, maxLength } from '../card/brand.ts';
import { caretAfterDigits, digitsOf, formatCardNumber } from '../card/format.ts';

/** Digits only, cut at the brand's longest length, spaced by the brand's gaps. */
export function formatNumberInput(raw: string): string {
  const digits = digitsOf(raw);
  const kept = digits.slice(0, maxLength(brandRules(digits)));
  return formatCardNumber(kept, brandRules(kept).gaps);
}

/** Digits only, as many as the brand's security code has (4 for Amex, else 3; 4 while unknown). */
export function formatCvcInput(raw: string, number: string): string {
  return digitsOf(raw).slice(0, Math.max(...brandRules(digitsOf(number)).cvcLengths));
}

/**
 * Writes the formatted value into the input and keeps the caret where the shopper expects it: at the
 * end when typing at the end, else after the same number of digits as before.
 */
export function reformat(input: HTMLInputElement, formatted: string): void {
  const raw = input.value;
  if (raw === formatted) return;
  const caret = input.selectionStart ?? raw.length;
  const next = caret >= raw.length ? formatted.length : caretAfterDigits(formatted, digitsOf(raw.slice(0, caret)).length);
  input.value = formatted;
  if (input.ownerDocument.activeElement === input) input.setSelectionRange(next, next);
}
