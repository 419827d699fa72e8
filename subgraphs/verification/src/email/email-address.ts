import { createRequire } from 'node:module';
import { badInput } from '../../../../platform/errors.js';

// the maintained list of disposable-mail domains (a JSON array), loaded once
const DISPOSABLE = new Set<string>(createRequire(import.meta.url)('disposable-email-domains') as string[]);

/** Letters, digits and the usual signs in the local part; a dotted domain of LDH labels with a letter TLD. */
const LOCAL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export interface CheckedEmail {
  /** The address with its domain in lower case */
  email: string;
  domain: string;
  /** The domain is on the disposable-mail list (or is a subdomain of one there) */
  disposable: boolean;
}

/** An email address a mail server could accept (syntax per RFC 5321 limits); 400 naming the field otherwise. */
export function checkEmail(value: string, field = 'email'): CheckedEmail {
  const at = value.lastIndexOf('@');
  const local = value.slice(0, at);
  const domain = value.slice(at + 1).toLowerCase();
  const labels = domain.split('.');
  const ok =
    at > 0 &&
    value.length <= 254 &&
    LOCAL.test(local) &&
    !local.startsWith('.') &&
    !local.endsWith('.') &&
    !local.includes('..') &&
    labels.length >= 2 &&
    labels.every((l) => LABEL.test(l)) &&
    /^[a-z]{2,63}$/.test(labels[labels.length - 1]);
  if (!ok) throw badInput(`${field} must be a valid email address`);
  return { email: `${local}@${domain}`, domain, disposable: isDisposable(domain) };
}

function isDisposable(domain: string): boolean {
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) if (DISPOSABLE.has(labels.slice(i).join('.'))) return true;
  return false;
}
