import { describe, expect, it } from 'vitest';
import { decodeCountries, encodeCountries } from './country-bits.ts';
import { COUNTRY_BITS } from './country-codes.ts';

describe('the country codes as a bitmap', () => {
  it('reads back any sorted list of codes, the first and last of AA…ZZ included', () => {
    for (const codes of [[], ['AA'], ['ZZ'], ['AA', 'AB', 'MZ', 'NA', 'ZY', 'ZZ'], ['DE', 'FR', 'US']]) {
      expect(decodeCountries(encodeCountries(codes))).toEqual(codes);
    }
  });

  it('holds the 249 ISO 3166-1 codes the form offers, and no user-assigned or reserved ones', () => {
    const codes = decodeCountries(COUNTRY_BITS);
    expect(codes).toHaveLength(249);
    expect(codes).toEqual(expect.arrayContaining(['AD', 'DE', 'FR', 'GB', 'US', 'ZW']));
    for (const code of ['AA', 'EU', 'UK', 'XK', 'ZZ']) expect(codes).not.toContain(code);
  });
});
