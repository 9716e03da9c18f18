import type { Locale } from '@payframe/contract/locales';
import { decodeCountries } from './country-bits.ts';
import { COUNTRY_BITS } from './country-codes.ts';
import { type ControlProps, controlAttributes, Labelled } from './labelled.tsx';

// The codes are kept as a bitmap (country-codes.ts); their names come from the browser's Intl data in the shopper's language.
const CODES = decodeCountries(COUNTRY_BITS);

/** The list for the last locale asked, kept: sorting it again on every keystroke elsewhere in the form would be waste. */
let named: { locale: Locale; countries: Array<{ code: string; name: string }> } | undefined;

function countriesIn(locale: Locale) {
  if (named?.locale !== locale) {
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    const countries = CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, locale));
    named = { locale, countries };
  }
  return named.countries;
}

export type CountrySelectProps = ControlProps & {
  placeholder: string;
  locale: Locale;
  onChange(value: string): void;
};

export function CountrySelect(props: CountrySelectProps) {
  return (
    <Labelled {...props}>
      <select {...controlAttributes(props)} autocomplete="country" onChange={(event) => props.onChange(event.currentTarget.value)}>
        <option value="">{props.placeholder}</option>
        {countriesIn(props.locale).map(({ code, name }) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
    </Labelled>
  );
}
