/**
 * JSON.parse forgets how a number was written: `1e3`, `1000.0` and `1000` all become 1000, so an
 * integer field would take a fraction or exponent that its form encoding refuses. A number token
 * with a fraction or an exponent is kept as its source text instead (a string), which the integer
 * fields' plain-digits rule then refuses exactly as it refuses `amount=1e3` from a form. No request
 * field takes a non-integer number.
 */

/** A cheap first look: a written number follows `:`, `,` or `[` and has `.` or `e` after its digits. */
const MAYBE_WRITTEN = /[:,[]\s*-?\d+[.eE]/;

/** One pass over the tokens that matter: string literals (kept as they are) and written numbers. */
const STRING_OR_WRITTEN_NUMBER = /"(?:[^"\\]|\\.)*"|(-?(?:0|[1-9]\d*)(?:\.\d+(?:[eE][+-]?\d+)?|[eE][+-]?\d+))/g;

/**
 * The JSON text with every number written with a fraction or exponent turned into a string of its
 * source text. Only for text that parses as JSON already: there a number is never an object key,
 * so quoting one keeps the text valid.
 */
export function numbersAsWritten(json: string): string {
  if (!MAYBE_WRITTEN.test(json)) return json;
  return json.replace(STRING_OR_WRITTEN_NUMBER, (token, number: string | undefined) => (number === undefined ? token : `"${token}"`));
}
