import type { Brand } from '@payframe/contract';
import { FIELD_LIMITS } from '@payframe/contract/limits';
import { FIELDS, type Field } from '../../protocol/names.ts';
import type { CardOptions } from '../../protocol/options.ts';
import { brandRules } from '../card/brand.ts';
import { digitsOf } from '../card/format.ts';
import { type Validity, validateCvc, validateEmail, validateExpiry, validateNumber, validateText } from '../card/validate.ts';
import type { ErrorKey } from '../i18n/en.ts';

export type Values = Record<Field, string>;

const EMPTY_VALUES = Object.fromEntries(FIELDS.map((field) => [field, ''])) as Values;

/** What the form knows besides the values: which fields were left, whether a token was asked for, what the API said. */
export type FormState = {
  values: Values;
  touched: Partial<Record<Field, true>>;
  submitted: boolean;
  /** The API's verdict on a field, or on the whole card (`form`), until the shopper edits again. */
  apiErrors: Partial<Record<Field | 'form', ErrorKey>>;
};

export const INITIAL_STATE: FormState = { values: EMPTY_VALUES, touched: {}, submitted: false, apiErrors: {} };

const OPTIONAL: readonly Field[] = ['address-line2', 'address-state'];

/** The fields on screen, in their order, for the merchant's `fields` option. */
export function visibleFields(options: CardOptions): Field[] {
  const address = options.fields?.address ?? 'none';
  const fields: Field[] = ['card-number', 'card-expiry', 'card-cvc', 'card-name'];
  if (options.fields?.email) fields.push('email');
  if (address === 'full') fields.push('address-line1', 'address-line2', 'address-city', 'address-state');
  if (address !== 'none') fields.push('postal-code');
  if (address === 'full') fields.push('address-country');
  return fields;
}

export type Context = { now: Date; testMode: boolean };

function validateField(field: Field, values: Values, context: Context): Validity {
  const value = values[field];
  switch (field) {
    case 'card-number':
      return validateNumber(value, context.testMode);
    case 'card-expiry':
      return validateExpiry(value, context.now);
    case 'card-cvc':
      return validateCvc(value);
    case 'card-name':
      return validateText(value, FIELD_LIMITS.cardName);
    case 'email':
      return validateEmail(value);
    case 'postal-code':
      // Any text within the API's limit, as the API takes it (docs/api.md: 1 to 20 characters).
      return validateText(value, FIELD_LIMITS.zipcode);
    case 'address-city':
      return validateText(value, FIELD_LIMITS.city);
    case 'address-state':
      return validateText(value, FIELD_LIMITS.state);
    default:
      return validateText(value, FIELD_LIMITS.addressLine);
  }
}

function errorShown(field: Field, validity: Validity, state: FormState): ErrorKey | undefined {
  const fromApi = state.apiErrors[field];
  if (fromApi) return fromApi;
  if (validity.state === 'invalid') return validity.error;
  if (validity.state === 'incomplete' && (state.touched[field] || state.submitted)) return validity.error;
  if (validity.state === 'empty' && state.submitted && !OPTIONAL.includes(field)) return 'required';
  return undefined;
}

export type FieldAssessment = { field: Field; validity: Validity; ready: boolean; error: ErrorKey | undefined };

export type Assessment = {
  fields: FieldAssessment[];
  /** Every required field valid, and optional ones valid or empty. */
  complete: boolean;
  empty: boolean;
  brand: Brand;
};

export function assess(state: FormState, options: CardOptions, context: Context): Assessment {
  const fields = visibleFields(options).map((field): FieldAssessment => {
    const validity = validateField(field, state.values, context);
    const ready = validity.state === 'valid' || (validity.state === 'empty' && OPTIONAL.includes(field));
    return { field, validity, ready, error: errorShown(field, validity, state) };
  });
  return {
    fields,
    complete: fields.every((field) => field.ready),
    empty: fields.every((field) => field.validity.state === 'empty'),
    brand: brandRules(digitsOf(state.values['card-number'])).brand,
  };
}
