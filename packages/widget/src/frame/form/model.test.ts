import { CreateTokenBodySchema } from '@payframe/contract';
import { FIELD_LIMITS } from '@payframe/contract/limits';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import { describe, expect, it } from 'vitest';
import type { Field } from '../../protocol/names.ts';
import { tokenBody } from '../tokens/token-body.ts';
import { assess, INITIAL_STATE, type Values } from './model.ts';

const OPTIONS = { fields: { email: true, address: 'full' } } as const;
const CONTEXT = { now: new Date(Date.UTC(2026, 10, 21)), testMode: true };
const VALID: Values = {
  ...INITIAL_STATE.values,
  'card-number': TEST_CARDS.visa.number,
  'card-expiry': '12 / 30',
  'card-cvc': '123',
  'card-name': 'Ada Lovelace',
  email: 'ada@example.com',
  'address-line1': '1 High St',
  'address-city': 'London',
  'postal-code': 'SW1A 1AA',
  'address-country': 'GB',
};

/** An e-mail address of exactly `length` characters. */
function email(length: number): string {
  const domain = '.example.com';
  return `${'a'.repeat(64)}@${'b'.repeat(length - 65 - domain.length)}${domain}`;
}

const TEXT_FIELDS: Array<[Field, number, (length: number) => string]> = [
  ['card-name', FIELD_LIMITS.cardName, (n) => 'n'.repeat(n)],
  ['address-line1', FIELD_LIMITS.addressLine, (n) => 'l'.repeat(n)],
  ['address-line2', FIELD_LIMITS.addressLine, (n) => 'l'.repeat(n)],
  ['address-city', FIELD_LIMITS.city, (n) => 'c'.repeat(n)],
  ['address-state', FIELD_LIMITS.state, (n) => 's'.repeat(n)],
  ['postal-code', FIELD_LIMITS.zipcode, (n) => '9'.repeat(n)],
  ['email', FIELD_LIMITS.email, email],
];

function verdicts(values: Values, field: Field) {
  const { fields } = assess({ ...INITIAL_STATE, values }, OPTIONS, CONTEXT);
  const widget = fields.find((entry) => entry.field === field)?.validity.state === 'valid';
  const body = tokenBody(
    values,
    fields.map((entry) => entry.field),
    {},
    'session-1',
  );
  return { widget, api: CreateTokenBodySchema.safeParse(body).success };
}

describe('the frame and the API agree on the length of every text field', () => {
  it.each(TEXT_FIELDS)('%s: %i characters pass both, one more fails both', (field, limit, make) => {
    expect(make(limit)).toHaveLength(limit);
    expect(verdicts({ ...VALID, [field]: make(limit) }, field)).toEqual({ widget: true, api: true });
    expect(verdicts({ ...VALID, [field]: make(limit + 1) }, field)).toEqual({ widget: false, api: false });
  });
});
