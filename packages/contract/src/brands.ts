import type { Brand } from './card.ts';

/**
 * card-validator's type names → the API's brands, for the server and the widget frame alike.
 * Plain data with no runtime imports, so the frame can take it without pulling zod into its budget.
 */
export const BRAND_BY_CARD_VALIDATOR_TYPE: Readonly<Record<string, Brand>> = {
  visa: 'VISA',
  mastercard: 'MASTERCARD',
  maestro: 'MAESTRO',
  'american-express': 'AMEX',
  discover: 'DISCOVER',
  jcb: 'JCB',
  'diners-club': 'DINERS',
  unionpay: 'UNIONPAY',
};
