import { CHARGE_EXPORT_COLUMNS, type DashboardCharge } from '@payframe/contract';
import { decimalAmount } from '@payframe/contract/money-format';

/**
 * A spreadsheet evaluates a cell that starts with one of these as a formula (OWASP's CSV injection):
 * such text cells get a leading apostrophe, which spreadsheets show as text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell, RFC 4180: quoted when it holds a comma, a quote or a line break, quotes doubled. */
export function csvCell(value: string, text: boolean): string {
  const safe = text && FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const CHARGES_CSV_HEADER = `${CHARGE_EXPORT_COLUMNS.join(',')}\r\n`;

/** One charge as a CSV line (CRLF-terminated), its columns those of CHARGE_EXPORT_COLUMNS. */
export function chargeCsvLine(charge: DashboardCharge): string {
  const money = (amount: number) => decimalAmount(amount, charge.currency);
  const cells: Record<(typeof CHARGE_EXPORT_COLUMNS)[number], [string, boolean]> = {
    id: [charge.id, false],
    created: [new Date(charge.created * 1000).toISOString().replace('.000Z', 'Z'), false],
    amount: [money(charge.amount), false],
    currency: [charge.currency, false],
    status: [charge.status, false],
    amount_captured: [money(charge.amount_captured), false],
    amount_refunded: [money(charge.amount_refunded), false],
    fees: [charge.fees === null ? '' : money(charge.fees), false],
    description: [charge.description, true],
    txn_reference: [charge.txn_reference ?? '', true],
    email: [charge.email, true],
    brand: [charge.token.card.brand, false],
    last4: [charge.token.card.last4Digits, false],
  };
  return `${CHARGE_EXPORT_COLUMNS.map((column) => csvCell(...cells[column])).join(',')}\r\n`;
}
