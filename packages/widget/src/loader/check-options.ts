import { LOCALES } from '@payframe/contract/locales';
import { ADDRESS_MODES, CSS_VALUE, PLACEHOLDER_PROPERTIES, STYLE_PROPERTIES, STYLE_STATES } from '../protocol/names.ts';
import type { CardOptions } from '../protocol/options.ts';

const OPTION_KEYS = ['locale', 'style', 'fields', 'disabled'];
const FIELD_KEYS = ['email', 'address'];

function includes(list: readonly string[], value: unknown): boolean {
  return typeof value === 'string' && list.includes(value);
}

/**
 * Developer feedback at mount() and update(): a mistake throws here, with its path, instead of the
 * frame silently refusing the options (it parses them again against the schemas: the frame trusts nothing).
 */
export function checkOptions(options: CardOptions): CardOptions {
  const fail = (problem: string): never => {
    throw new TypeError(`Payframe: ${problem}`);
  };
  for (const key of Object.keys(options)) if (!OPTION_KEYS.includes(key)) fail(`unknown option "${key}"`);
  if (options.locale !== undefined && !includes(LOCALES, options.locale)) fail(`locale must be one of ${LOCALES.join(', ')}`);
  for (const key of Object.keys(options.fields ?? {})) if (!FIELD_KEYS.includes(key)) fail(`unknown field option "fields.${key}"`);
  if (options.fields?.email !== undefined && typeof options.fields.email !== 'boolean') fail('fields.email must be true or false');
  if (options.disabled !== undefined && typeof options.disabled !== 'boolean') fail('disabled must be true or false');
  if (options.fields?.address !== undefined && !includes(ADDRESS_MODES, options.fields.address)) {
    fail(`fields.address must be one of ${ADDRESS_MODES.join(', ')}`);
  }
  for (const [state, declarations] of Object.entries(options.style ?? {})) {
    if (!includes(STYLE_STATES, state)) fail(`style.${state} is not one of ${STYLE_STATES.join(', ')}`);
    const allowed = state === 'placeholder' ? PLACEHOLDER_PROPERTIES : STYLE_PROPERTIES;
    for (const [property, value] of Object.entries(declarations ?? {})) {
      if (!includes(allowed, property)) fail(`style.${state}.${property} is not allowed (allowed: ${allowed.join(', ')})`);
      if (typeof value !== 'string' || !CSS_VALUE.test(value)) fail(`style.${state}.${property} must be a plain CSS value, without url()`);
    }
  }
  return options;
}
