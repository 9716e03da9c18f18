import type { CreateTokenBodySchema } from '@payframe/contract';
import type { z } from 'zod';
import type { Field } from '../../protocol/names.ts';
import type { TokenRequest } from '../../protocol/options.ts';
import { digitsOf } from '../card/format.ts';
import type { Values } from '../form/model.ts';

export type TokenBody = z.input<typeof CreateTokenBodySchema>;

/**
 * The API request from what the shopper typed and what the merchant added. A field the frame shows
 * wins over the merchant's value for it; with a publishable key the server takes the shopper's IP
 * from the connection, so none is sent.
 */
export function tokenBody(values: Values, visible: readonly Field[], request: TokenRequest, sessionId: string): TokenBody {
  const collected = (field: Field, given: string | undefined) => {
    const typed = visible.includes(field) ? values[field].trim() : '';
    return typed || given || undefined;
  };
  const given = request.address ?? {};
  const address = {
    address_line1: collected('address-line1', given.line1),
    address_line2: collected('address-line2', given.line2),
    city: collected('address-city', given.city),
    state: collected('address-state', given.state),
    zipcode: collected('postal-code', given.postalCode),
    country: collected('address-country', given.country),
  };
  const expiry = digitsOf(values['card-expiry']);
  return {
    card: {
      number: digitsOf(values['card-number']),
      cvc: digitsOf(values['card-cvc']),
      exp_month: expiry.slice(0, 2),
      exp_year: `20${expiry.slice(2, 4)}`,
      name: values['card-name'].trim(),
    },
    // The API requires an e-mail; when neither side has one, its own error says so.
    shopper: { email: collected('email', request.shopper?.email) as string, session_id: request.shopper?.sessionId ?? sessionId },
    ...(Object.values(address).some(Boolean) ? { address } : {}),
  };
}
