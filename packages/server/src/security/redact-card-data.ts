import { CARD_LIKE } from '../logging.ts';

/**
 * Names whose values are never stored, wherever they appear: a card's number and its verification
 * code, and a secret the API shows only once (a webhook endpoint's signing secret, in the answer
 * that creates it).
 */
const CARD_FIELD = /^(?:number|cvc|cvv|cvc2|cvv2|card\[(?:number|cvc|cvv)\]|secret)$/i;
/**
 * A UUID (token and refund ids) is kept: its last groups may be all digits, which alone would look
 * like a dash-separated card number.
 */
export const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const UUID_LENGTH = 36;
const UUID_HERE = new RegExp(UUID, 'y');
const CARD_LIKE_FROM = new RegExp(CARD_LIKE.source, 'g');
export const REDACTED = '[redacted]';

/** A character a UUID may hold: a hex digit or a dash. */
function inUuid(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 102) || (code >= 65 && code <= 70) || code === 45;
}

/**
 * The end of the UUID that holds position `at`, as a scan from `from` that steps over each UUID
 * it meets finds it, or -1. Only the run of UUID characters around `at` can hold one, so the scan
 * starts where that run does.
 */
function endOfUuidOver(text: string, from: number, at: number): number {
  let start = at;
  while (start > from && inUuid(text.charCodeAt(start - 1))) start--;
  for (let i = start; i <= at; ) {
    UUID_HERE.lastIndex = i;
    if (!UUID_HERE.test(text)) i++;
    else if (i + UUID_LENGTH > at) return i + UUID_LENGTH;
    else i += UUID_LENGTH;
  }
  return -1;
}

/**
 * The text with every run of digits that could be a card number replaced, UUIDs kept; scanning left
 * to right, a UUID that begins first is kept whole. Most texts hold no such run, and asking that
 * alone is cheap: the request log asks it of every answer. Where one is, only the text around each
 * is looked at for a UUID, not every position of the text.
 */
export function redactCardNumbers(text: string): string {
  if (!CARD_LIKE.test(text)) return text;
  let redacted = '';
  let copied = 0;
  let from = 0;
  for (;;) {
    CARD_LIKE_FROM.lastIndex = from;
    const match = CARD_LIKE_FROM.exec(text);
    if (match === null) break;
    const uuidEnd = endOfUuidOver(text, from, match.index);
    if (uuidEnd !== -1) {
      from = uuidEnd;
      continue;
    }
    redacted += `${text.slice(copied, match.index)}${REDACTED}`;
    copied = from = match.index + match[0].length;
  }
  return copied === 0 ? text : redacted + text.slice(copied);
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
