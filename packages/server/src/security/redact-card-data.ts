import { CARD_LIKE } from '../logging.ts';

/** Names whose values are card data wherever they appear: a card's number and its verification code. */
const CARD_FIELD = /^(?:number|cvc|cvv|cvc2|cvv2|card\[(?:number|cvc|cvv)\])$/i;
/**
 * A UUID (token and refund ids) is matched first and kept: its last groups may be all digits,
 * which alone would look like a dash-separated card number.
 */
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const CARD_LIKE_EVERYWHERE = new RegExp(`(${UUID})|${CARD_LIKE.source}`, 'g');
export const REDACTED = '[redacted]';

/** The text with every run of digits that could be a card number replaced. */
export function redactCardNumbers(text: string): string {
  return text.replace(CARD_LIKE_EVERYWHERE, (_match, uuid: string | undefined) => uuid ?? REDACTED);
}

/**
 * A copy of parsed parameters fit to store: a card's number and CVC (by name, at any depth) are
 * replaced, and so is anything that looks like a card number in any other value or name.
 */
export function redactCardData(value: unknown): unknown {
  if (typeof value === 'string') return redactCardNumbers(value);
  if (Array.isArray(value)) return value.map(redactCardData);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    copy[redactCardNumbers(name)] = CARD_FIELD.test(name) && inner !== undefined && inner !== null ? REDACTED : redactCardData(inner);
  }
  return copy;
}
