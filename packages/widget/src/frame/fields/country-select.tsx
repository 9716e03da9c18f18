import type { CSSProperties } from 'preact';
import type { Locale } from '@payframe/contract/locales';

// ISO 3166-1 alpha-2 codes; their names come from the browser's Intl data in the shopper's language.
const CODES =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'.split(' ');

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
