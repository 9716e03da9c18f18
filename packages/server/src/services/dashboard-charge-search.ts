import { listChargesShape } from '@payframe/contract';
import type { ChargeMatch } from '../storage/repositories/lists.ts';

const FILTERS = [
  ['txn_reference', listChargesShape.txn_reference],
  ['email', listChargesShape.email],
  ['last4', listChargesShape.last4],
] as const;

/**
 * Everything the dashboard's search box text may be: a charge id, and each /v2/charges filter
 * whose own rule takes the text, read as that filter reads it (an e-mail lower-cased, so it is
 * matched case-insensitively). `C123` and `4242` are then found as a txn_reference too.
 */
export function chargeSearchMatches(text: string): ChargeMatch[] {
  const matches: ChargeMatch[] = [{ column: 'id', value: text }];
  for (const [column, schema] of FILTERS) {
    const read = schema.safeParse(text);
    if (read.success && read.data !== undefined) matches.push({ column, value: read.data });
  }
  return matches;
}
