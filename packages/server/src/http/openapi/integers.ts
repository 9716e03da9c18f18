/**
 * Integers arrive as digits (forms, queries) or, in JSON, as numbers. The contract marks each with
 * its bounds (`x-integer`); here they become what OpenAPI can say: in a query, an integer (clients
 * serialize it, validators parse it); in a body, digits whose pattern holds the same bounds, or a
 * JSON integer.
 */
export type Bounds = { minimum: number; maximum?: number };

export function queryInteger(bounds: Bounds): Record<string, unknown> {
  return { type: 'integer', ...bounds };
}

export function bodyInteger(bounds: Bounds): Record<string, unknown> {
  return {
    anyOf: [
      { type: 'string', pattern: digitsPattern(bounds) },
      { type: 'integer', ...bounds },
    ],
  };
}

/** A pattern for the decimal integers in [minimum, maximum] (leading zeros allowed, as the server takes them). */
export function digitsPattern({ minimum, maximum }: Bounds): string {
  if (maximum === undefined) return minimum === 0 ? '^\\d+$' : '^0*[1-9]\\d*$';
  const alternatives: string[] = [];
  const low = String(minimum);
  const high = String(maximum);
  for (let length = low.length; length <= high.length; length++) {
    const from = length === low.length ? low : `1${'0'.repeat(length - 1)}`;
    const to = length === high.length ? high : '9'.repeat(length);
    alternatives.push(sameLength(from, to));
  }
  return `^0*(?:${alternatives.join('|')})$`;
}

/** The numbers from `a` to `b`, both of one length, as a pattern (the to-regex-range recursion). */
function sameLength(a: string, b: string): string {
  if (a === b) return a;
  const rest = a.length - 1;
  if (/^0*$/.test(a.slice(1)) && /^9*$/.test(b.slice(1))) {
    const digits = a[0] === b[0] ? a[0] : `[${a[0]}-${b[0]}]`;
    return rest === 0 ? `${digits}` : `${digits}[0-9]{${rest}}`;
  }
  if (a[0] === b[0]) return `${a[0]}${sameLength(a.slice(1), b.slice(1))}`;
  const parts: string[] = [];
  let first = Number(a[0]);
  let last = Number(b[0]);
  if (!/^0*$/.test(a.slice(1))) {
    parts.push(`${a[0]}${sameLength(a.slice(1), '9'.repeat(rest))}`);
    first++;
  }
  const tail = /^9*$/.test(b.slice(1)) ? null : `${b[0]}${sameLength('0'.repeat(rest), b.slice(1))}`;
  if (tail) last--;
  if (first <= last) parts.push(`${first === last ? first : `[${first}-${last}]`}[0-9]{${rest}}`);
  if (tail) parts.push(tail);
  return parts.length === 1 ? parts[0]! : `(?:${parts.join('|')})`;
}
