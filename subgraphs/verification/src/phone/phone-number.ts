import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { badInput } from '../../../../platform/errors.js';

/** What a valid number is, from libphonenumber's full metadata. */
export interface CheckedNumber {
  /** E.164, normalized */
  e164: string;
  /** ISO 3166-1 alpha-2 of the number's country (null for non-geographic numbers) */
  country: string | null;
  /** MOBILE, FIXED_LINE, FIXED_LINE_OR_MOBILE, VOIP, TOLL_FREE…; UNKNOWN when the metadata cannot tell */
  lineType: string;
}

const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * A phone number in E.164 that is valid for its country (the full metadata: its number ranges, not
 * only its length); 400 naming the field otherwise.
 */
export function checkPhoneNumber(value: string, field = 'phoneNumber'): CheckedNumber {
  if (!E164.test(value))
    throw badInput(`${field} must be in E.164 format: + then the country code and number, digits only (e.g. +254712345678)`);
  const parsed = parsePhoneNumberFromString(value);
  if (!parsed?.isValid()) throw badInput(`${field} is not a valid phone number for its country (${value})`);
  return { e164: parsed.number, country: parsed.country ?? null, lineType: parsed.getType() ?? 'UNKNOWN' };
}

/** Whether a line of this type receives text messages (a fixed line takes only calls). */
export const receivesText = (lineType: string) =>
  !['FIXED_LINE', 'TOLL_FREE', 'PREMIUM_RATE', 'SHARED_COST', 'UAN', 'VOICEMAIL'].includes(lineType);
