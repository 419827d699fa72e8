import en from '../messages/en.json';
import fr from '../messages/fr.json';

/**
 * Every visible string of the flow comes from messages/<locale>.json (same keys in each:
 * messages.test.ts). `{name}` in a message is replaced by the value of that name.
 */
export const MESSAGES = { en, fr } as const;
export type Locale = keyof typeof MESSAGES;
export type MessageKey = keyof typeof en;
export const LOCALES = Object.keys(MESSAGES) as Locale[];

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && value in MESSAGES;

/** The page's language: `?lang=` wins, then the flow's locale, then English. */
export function chooseLocale(query: string | null, flowLocale: string | null | undefined): Locale {
  const wanted = [query, flowLocale].map((l) => l?.toLowerCase().split(/[-_]/)[0]);
  return wanted.find(isLocale) ?? 'en';
}

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export function translator(locale: Locale): Translate {
  const messages: Record<string, string> = MESSAGES[locale];
  return (key, values = {}) =>
    (messages[key] ?? en[key] ?? key).replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** A key made at run time (a step, a reason code), if the files have it. */
export const messageKey = (key: string): MessageKey | null => (key in en ? (key as MessageKey) : null);
