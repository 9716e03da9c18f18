import { CARD_LIKE } from '../logging.ts';

/**
 * Names whose values are never stored, wherever they appear: a card's number and its verification
 * code, and a secret the API shows only once (a webhook endpoint's signing secret, in the answer
 * that creates it).
 */
const CARD_FIELD = /^(?:number|cvc|cvv|cvc2|cvv2|card\[(?:number|cvc|cvv)\]|secret)$/i;
/**
 * A UUID (token and refund ids) is matched first and kept: its last groups may be all digits,
 * which alone would look like a dash-separated card number.
 */
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const CARD_LIKE_EVERYWHERE = new RegExp(`(${UUID})|${CARD_LIKE.source}`, 'g');
export const REDACTED = '[redacted]';

/**
 * The text with every run of digits that could be a card number replaced. Most texts hold none, and
 * asking that alone is several times cheaper than the replacement's search, which also steps over
 * every UUID: the request log asks it of every answer.
 */
export function redactCardNumbers(text: string): string {
  if (!CARD_LIKE.test(text)) return text;
  return text.replace(CARD_LIKE_EVERYWHERE, (_match, uuid: string | undefined) => uuid ?? REDACTED);
}

const SECRET_IN_JSON = /"secret"\s*:\s*"(?:[^"\\]|\\.)*"/g;

/**
 * JSON text (an answer, kept as sent) fit to store: a once-shown secret's value and every run of
 * digits that could be a card number are replaced, without parsing the text (it may be cut short).
 */
export function redactAnswerText(text: string): string {
  return redactCardNumbers(text.includes('"secret"') ? text.replace(SECRET_IN_JSON, `"secret":"${REDACTED}"`) : text);
}

/**
 * A copy of parsed parameters or of an answer fit to store: a card's number and CVC and a
 * once-shown secret (by name, at any depth) are replaced, and so is anything that looks like a card
 * number in any other value or name.
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
