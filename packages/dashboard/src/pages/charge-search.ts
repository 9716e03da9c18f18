import type { ChargesQuery } from '../api/client.ts';

/** What the search box asks for: a charge to open, one list filter, or nothing. */
export type ChargeSearch = { charge: string } | { filter: Pick<ChargesQuery, 'txn_reference' | 'email' | 'last4'> } | null;

/** Charge ids are `C` and digits. */
const CHARGE_ID = /^C\d+$/;

/**
 * One input, one filter, matched exactly as the API's list filters are: a charge id opens that
 * charge, 4 digits are the card's last 4, anything with `@` an e-mail (case-insensitive on the
 * server), and everything else a txn_reference.
 */
export function chargeSearch(input: string): ChargeSearch {
  const text = input.trim();
  if (text === '') return null;
  if (CHARGE_ID.test(text)) return { charge: text };
  if (/^\d{4}$/.test(text)) return { filter: { last4: text } };
  if (text.includes('@')) return { filter: { email: text } };
  return { filter: { txn_reference: text } };
}
