import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** The spec's providers, as it names them (both forms). */
export const MOBILE_MONEY_PROVIDERS = ['MTN_MOMO', 'ORANGE_MONEY', 'AIRTEL_MONEY', 'MPESA', 'WAVE', 'FREE_MONEY', 'MOOV_MONEY'] as const;
export type MobileMoneyProvider = (typeof MOBILE_MONEY_PROVIDERS)[number];

/**
 * Where each provider runs a mobile money service (ISO 3166-1 alpha-2), from the operators'
 * published country lists (2026). A request naming a country outside its provider's list is
 * refused (422): no operator could answer it. Data, not code: extend a list when an operator
 * opens a market.
 */
export const PROVIDER_COUNTRIES: Record<MobileMoneyProvider, readonly string[]> = {
  // MTN Group's MoMo markets (the MoMo Open API's target environments)
  MTN_MOMO: ['BJ', 'CG', 'CI', 'CM', 'GH', 'GN', 'GW', 'LR', 'NG', 'RW', 'SS', 'SZ', 'UG', 'ZM'],
  // Orange Money: West and Central Africa, Madagascar, Botswana, North Africa
  ORANGE_MONEY: ['BF', 'BW', 'CD', 'CF', 'CI', 'CM', 'EG', 'GN', 'GW', 'LR', 'MA', 'MG', 'ML', 'SL', 'SN', 'TN'],
  // Airtel Africa's fourteen markets
  AIRTEL_MONEY: ['CD', 'CG', 'GA', 'KE', 'MG', 'MW', 'NE', 'NG', 'RW', 'SC', 'TD', 'TZ', 'UG', 'ZM'],
  // Safaricom and Vodacom M-Pesa
  MPESA: ['CD', 'ET', 'KE', 'LS', 'MZ', 'TZ'],
  WAVE: ['BF', 'CI', 'GM', 'ML', 'SN', 'UG'],
  // Free Sénégal (Yas)
  FREE_MONEY: ['SN'],
  // Moov Africa (Maroc Telecom's subsidiaries)
  MOOV_MONEY: ['BF', 'BJ', 'CF', 'CI', 'GA', 'ML', 'MR', 'NE', 'TD', 'TG'],
};

/** E.164 as the spec writes it: a plus, then 8 to 15 digits, nothing else. */
const E164 = /^\+[1-9]\d{7,14}$/;

/** Number types a mobile money wallet can be held on (libphonenumber's types). */
const WALLET_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

export interface AccountToCheck {
  /** E.164, as validated */
  phoneNumber: string;
  provider: MobileMoneyProvider;
  /** ISO 3166-1 alpha-2 */
  country: string;
}

/**
 * Value checks of an account to look up (422 messages, each starting with the field it judges):
 * the number is E.164 and a valid number, of a kind that can hold a wallet, of `country`; the
 * provider runs mobile money in `country`. Presence and types were checked by GraphQL (400).
 */
export function validateAccount(input: { phoneNumber: string; provider: MobileMoneyProvider; country: string }): string[] {
  const errors: string[] = [];
  const country = input.country;
  const countryValid = /^[A-Z]{2}$/.test(country) && isSupportedCountry(country);
  if (!countryValid) errors.push('country must be an uppercase ISO 3166-1 alpha-2 country code');
  if (!E164.test(input.phoneNumber)) {
    errors.push('phoneNumber must be in E.164 format: a plus sign and 8 to 15 digits, e.g. +233241234567');
  } else {
    const parsed = parsePhoneNumberFromString(input.phoneNumber);
    if (!parsed || !parsed.isValid()) {
      errors.push(`phoneNumber ${input.phoneNumber} is not a valid number of any numbering plan`);
    } else {
      const type = parsed.getType();
      if (type && !WALLET_TYPES.has(type)) {
        errors.push(`phoneNumber must be a mobile number (${input.phoneNumber} is a ${type.toLowerCase().replace(/_/g, '-')} number)`);
      }
      if (countryValid && parsed.country !== country) {
        errors.push(
          `phoneNumber ${input.phoneNumber} is a number of ${parsed.country ?? `+${parsed.countryCallingCode}`}, not of ${country}`,
        );
      }
    }
  }
  const served = PROVIDER_COUNTRIES[input.provider];
  if (countryValid && served && !served.includes(country)) {
    errors.push(`provider ${input.provider} offers no mobile money service in ${country} (it does in: ${served.join(', ')})`);
  }
  return errors;
}

/** The national significant number of a valid E.164 number (what the sandbox's magic endings are read from). */
export function nationalNumberOf(phoneNumber: string): string {
  return parsePhoneNumberFromString(phoneNumber)?.nationalNumber ?? phoneNumber.replace(/^\+/, '');
}

/** A name as operators print it: capitals, without accents. */
export const operatorCapitals = (name: string): string =>
  name.normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim().toUpperCase();
