/** Deliberately simple: one @, no spaces, a dot in the domain (what SMTP servers accept in practice). */
export const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
/** E.164: +, country code, at most 15 digits in all. */
export const E164 = /^\+[1-9]\d{6,14}$/;

export const isEmail = (value: string): boolean => value.length <= 254 && EMAIL.test(value);
export const isE164 = (value: string): boolean => E164.test(value);
