import type { Field } from '../../protocol/names.ts';

/** The English texts; the other locales must translate every key (their type says so). */
export const en = {
  labels: {
    'card-number': 'Card number',
    'card-expiry': 'Expiry date',
    'card-cvc': 'Security code',
    'card-name': 'Name on card',
    email: 'Email',
    'address-line1': 'Address',
    'address-line2': 'Address line 2 (optional)',
    'address-city': 'City',
    'address-state': 'State or region (optional)',
    'postal-code': 'Postal code',
    'address-country': 'Country',
  } satisfies Record<Field, string>,
  placeholders: {
    number: '1234 1234 1234 1234',
    expiry: 'MM / YY',
    cvc: 'CVC',
    country: 'Choose a country',
  },
  errors: {
    invalid: 'Check this field.',
    required: 'This field is required.',
    numberIncomplete: 'Your card number is incomplete.',
    numberInvalid: 'Your card number is invalid.',
    expiryIncomplete: 'Your card’s expiry date is incomplete.',
    expiryMonthInvalid: 'The expiry month must be between 01 and 12.',
    expiryPast: 'Your card’s expiry date is in the past.',
    cvcIncomplete: 'Your card’s security code is incomplete.',
    emailInvalid: 'Enter a valid email address.',
    textTooLong: 'This is too long.',
    incorrectNumber: 'Your card number is incorrect.',
    expiredCard: 'Your card has expired.',
    incorrectCvc: 'Your card’s security code is incorrect.',
    declined: 'Your card was declined.',
    rateLimited: 'Too many attempts. Wait a minute and try again.',
    unavailable: 'We could not reach the payment service. Check your connection and try again.',
    failed: 'Your card could not be saved. Try again or contact the merchant.',
  },
};

export type Messages = typeof en;
export type ErrorKey = keyof Messages['errors'];
