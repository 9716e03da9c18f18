// card-validator's number check (cardNumber, without options) over the table of card-types.ts, so
// the frame carries neither library; card-number.test.ts holds it to card-validator's verdicts.
import { CARD_TYPES, type CardType } from './card-types.ts';

export type Verification = { card: CardType | null; isPotentiallyValid: boolean; isValid: boolean };

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

function matches(digits: string, pattern: number | [number, number]): boolean {
  if (typeof pattern === 'number') {
    const prefix = String(pattern);
    return prefix.slice(0, digits.length) === digits.slice(0, prefix.length);
  }
  const [min, max] = pattern.map(String) as [string, string];
  const head = digits.slice(0, min.length);
  const value = Number(head);
  return value >= Number(min.slice(0, head.length)) && value <= Number(max.slice(0, head.length));
}

/** The types a number may be, narrowed to the most specific match once every candidate's pattern is fully typed. */
function candidates(digits: string): CardType[] {
  if (digits === '') return CARD_TYPES;
  const found: Array<{ card: CardType; strength: number }> = [];
  for (const card of CARD_TYPES) {
    const pattern = card.patterns.find((candidate) => matches(digits, candidate));
    if (pattern === undefined) continue;
    const length = String(typeof pattern === 'number' ? pattern : pattern[0]).length;
    found.push({ card, strength: digits.length >= length ? length : 0 });
  }
  if (found.length === 0 || found.some((match) => match.strength === 0)) return found.map((match) => match.card);
  return [found.reduce((best, match) => (match.strength > best.strength ? match : best)).card];
}

/** For digits only, as the frame always passes. */
export function verifyNumber(digits: string): Verification {
  const types = candidates(digits);
  const card = types.length === 1 ? types[0] : undefined;
  if (!card) return { card: null, isPotentiallyValid: types.length > 0, isValid: false };
  // card-validator skips Luhn for UnionPay: some of its cards do not pass it.
  const isValid = card.type === 'unionpay' || luhn(digits);
  const shorter = digits.length < Math.max(...card.lengths);
  if (card.lengths.includes(digits.length)) return { card, isPotentiallyValid: shorter || isValid, isValid };
  return { card, isPotentiallyValid: shorter, isValid: false };
}
