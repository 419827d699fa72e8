import countries from 'i18n-iso-countries';

/**
 * The assigned ISO 3166-1 alpha-2 codes (and XK, Kosovo, as lists use it): the 250 codes the graph's
 * `CountryCode` scalar accepts too (a test holds them together), so a code stored after this check
 * always reads back. One list for every service.
 */
const COUNTRY_CODES = new Set(Object.keys(countries.getAlpha2Codes()));

/** An assigned ISO 3166-1 alpha-2 code, uppercase. */
export function isCountryCode(code: string): boolean {
  return COUNTRY_CODES.has(code);
}

/** The alpha-2 code of an alpha-3 one (KEN → KE); null when there is none. */
export function alpha2Of(alpha3: string): string | null {
  return countries.alpha3ToAlpha2(alpha3) ?? null;
}
