import type { Field } from '../../protocol/names.ts';

/** Where each field goes in a `POST /v2/tokens` body, in the dotted names the API's errors use. */
export const API_PARAMETER: Record<Field, string> = {
  'card-number': 'card.number',
  'card-expiry': 'card.exp_month',
  'card-cvc': 'card.cvc',
  'card-name': 'card.name',
  email: 'shopper.email',
  'address-line1': 'address.address_line1',
  'address-line2': 'address.address_line2',
  'address-city': 'address.city',
  'address-state': 'address.state',
  'postal-code': 'address.zipcode',
  'address-country': 'address.country',
};

export function fieldOfParameter(parameter: string | undefined): Field | undefined {
  if (parameter === 'card.exp_year') return 'card-expiry';
  return (Object.keys(API_PARAMETER) as Field[]).find((field) => API_PARAMETER[field] === parameter);
}
