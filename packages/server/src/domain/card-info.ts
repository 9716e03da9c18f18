import { type Authorization, BRAND_BY_CARD_VALIDATOR_TYPE, type Brand, type Funding } from '@payframe/contract';
import { findTestCard, LUHN_EXEMPT_TEST_CARD } from '@payframe/contract/test-cards';
import cardValidator from 'card-validator';
import luhn10 from 'card-validator/dist/luhn-10.js';

export type CardInfo = {
  brand: Brand;
  funding: Funding;
  country: string;
  bank: string;
  authorization: Authorization;
};

type CardType = NonNullable<ReturnType<typeof cardValidator.number>['card']>;

/** credit-card-type's patterns are at most this many digits: a longer number's brand is its prefix's. */
const BRAND_PREFIX_DIGITS = 8;
/** Detecting the brand walks every pattern and clones the result: done once per prefix. Bounded, in memory only. */
const typeByPrefix = new Map<string, CardType | null>();
const MAX_PREFIXES = 10_000;

/** The one brand the number's prefix matches (card-validator's answer), or null for none or several. */
function cardTypeOf(number: string): CardType | null {
  if (number.length < BRAND_PREFIX_DIGITS) return cardValidator.number(number).card;
  const prefix = number.slice(0, BRAND_PREFIX_DIGITS);
  let type = typeByPrefix.get(prefix);
  if (type === undefined) {
    type = cardValidator.number(prefix).card;
    if (typeByPrefix.size >= MAX_PREFIXES) typeByPrefix.clear();
    typeByPrefix.set(prefix, type);
  }
  return type;
}

/**
 * 12 to 19 digits that pass Luhn, whatever the brand's usual lengths: the contract approves any
 * Luhn-valid number, and Visa has issued 13-digit numbers that card-validator's lengths leave out.
 * Only UnionPay, whose numbers need not pass Luhn, is held to its own lengths instead (as
 * card-validator checks it).
 */
export function isValidCardNumber(number: string): boolean {
  if (number === LUHN_EXEMPT_TEST_CARD) return true;
  if (number.length < 12 || number.length > 19) return false;
  if (luhn10(number)) return true;
  const type = cardTypeOf(number);
  return type?.type === 'unionpay' && type.lengths.includes(number.length);
}

/** What the BIN tells about a card: the test cards' own data, otherwise the brand alone. */
export function describeCard(number: string): CardInfo {
  const testCard = findTestCard(number);
  if (testCard) {
    const { brand, funding, country, bank, authorization } = testCard;
    return { brand, funding, country, bank, authorization };
  }
  const type = cardTypeOf(number)?.type;
  return {
    brand: (type && BRAND_BY_CARD_VALIDATOR_TYPE[type]) || 'UNKNOWN',
    funding: 'CREDIT',
    country: 'UNKNOWN',
    bank: 'UNKNOWN',
    authorization: 'NOT_AVAILABLE',
  };
}

/** A card is usable through the last day of its expiry month. */
export function isExpired(expMonth: number, expYear: number, now: number): boolean {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  return expYear < year || (expYear === year && expMonth < date.getUTCMonth() + 1);
}

/** How many leading digits of a card number may be kept beside the last 4: at least six stay hidden. */
export function keptLeadingDigits(number: string): string {
  return number.slice(0, Math.max(0, Math.min(6, number.length - 10)));
}
