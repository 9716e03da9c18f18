import type { CSSProperties } from 'preact';
import type { Locale } from '@payframe/contract/locales';
import { decodeCountries } from './country-bits.ts';
import { COUNTRY_BITS } from './country-codes.ts';

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

export type CountrySelectProps = {
  label: string;
  placeholder: string;
  locale: Locale;
  value: string;
  error: string | undefined;
  disabled: boolean;
  style: CSSProperties;
  onChange(value: string): void;
  onFocus(): void;
  onBlur(): void;
  selectRef(element: HTMLSelectElement | null): void;
};

export function CountrySelect(props: CountrySelectProps) {
  const countries = countriesIn(props.locale);
  const errorId = 'address-country-error';
  return (
    <div class="field">
      <label for="address-country">{props.label}</label>
      <select
        id="address-country"
        name="address-country"
        ref={props.selectRef}
        data-testid="address-country"
        aria-label={props.label}
        aria-invalid={props.error ? 'true' : 'false'}
        aria-describedby={props.error ? errorId : undefined}
        autocomplete="country"
        disabled={props.disabled}
        value={props.value}
        style={props.style}
        onChange={(event) => props.onChange(event.currentTarget.value)}
        onFocus={props.onFocus}
        onBlur={props.onBlur}
      >
        <option value="">{props.placeholder}</option>
        {countries.map(({ code, name }) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
      {props.error && (
        <p id={errorId} class="error" data-testid={errorId}>
          {props.error}
        </p>
      )}
    </div>
  );
}
