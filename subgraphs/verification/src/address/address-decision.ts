import type { AddressDocumentFields } from './address-fields.js';
import { ADDRESS_MISMATCH, compareAddresses, type AddressComparison } from './address-match.js';

/**
 * The one decision of an address verification, from what was read on its document: a pure
 * function (unit-tested beside it), so the worker and the tests judge alike.
 */

export const ADDRESS_DOCUMENT_TYPES = ['UTILITY_BILL', 'BANK_STATEMENT', 'TAX_DOCUMENT', 'GOVERNMENT_LETTER'] as const;
export type AddressDocumentType = (typeof ADDRESS_DOCUMENT_TYPES)[number];

/** A proof of address is accepted when issued within this many months (spec: "within 3 months"). */
export const MAX_AGE_MONTHS = 3;
/** Under this mean OCR confidence (0–100) an otherwise clean reading goes to a reviewer. */
export const MIN_TEXT_CONFIDENCE = 60;
/** A date this many days ahead of today is a misreading or a forgery, not a clock difference. */
const FUTURE_TOLERANCE_DAYS = 1;

export type AddressDecision = 'VERIFIED' | 'REJECTED' | 'MANUAL_REVIEW';

export interface AddressEvidence {
  fields: AddressDocumentFields;
  /** Mean OCR confidence of the lines, 0–100. */
  textConfidence: number;
  /** The address the user declared (Form A `expectedAddress`, Form B `declaredAddress`); null when none. */
  expectedAddress: string | null;
  /** YYYY-MM-DD (UTC) */
  today: string;
}

export interface AddressOutcome {
  decision: AddressDecision;
  /** Why it was rejected or sent to review, as codes; empty when verified. */
  reasons: string[];
  /** Whole days from the issue date to today; null without an issue date. */
  documentAgeDays: number | null;
  /** Null when no address was declared or none was read. */
  comparison: AddressComparison | null;
}

const DAY = 86_400_000;
const utc = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/** The last issue date still accepted today: the same day `MAX_AGE_MONTHS` months back (the month's last day when shorter). */
export function oldestAccepted(today: string): string {
  const [y, m, d] = today.split('-').map(Number);
  const monthStart = new Date(Date.UTC(y, m - 1 - MAX_AGE_MONTHS, 1));
  const lastDay = new Date(Date.UTC(monthStart.getUTCFullYear(), monthStart.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(monthStart.getUTCFullYear(), monthStart.getUTCMonth(), Math.min(d, lastDay))).toISOString().slice(0, 10);
}

/** "44 days", "1 day" (the published text form of `documentAge`). */
export const ageText = (days: number | null): string | null => (days === null ? null : `${days} ${Math.abs(days) === 1 ? 'day' : 'days'}`);

/**
 * - **REJECTED**: issued more than 3 months ago (`DOCUMENT_TOO_OLD`); the address read differs
 *   from the declared one (score under 0.50: `ADDRESS_MISMATCH`); nothing of a proof of address
 *   read at all (`UNREADABLE_DOCUMENT`).
 * - **MANUAL_REVIEW**: no issue date or no address read (`ISSUE_DATE_NOT_READ`,
 *   `ADDRESS_NOT_READ`), a date in the future (`ISSUE_DATE_IN_FUTURE`), an uncertain comparison
 *   (`ADDRESS_PARTIAL_MATCH`), low text confidence (`LOW_TEXT_CONFIDENCE`).
 * - **VERIFIED** otherwise: recent, and the address matches the declared one (or none was declared:
 *   the document proves the address read).
 */
export function decideAddress(evidence: AddressEvidence): AddressOutcome {
  const { fields, today } = evidence;
  const documentAgeDays = fields.issueDate ? Math.round((utc(today) - utc(fields.issueDate)) / DAY) : null;
  const comparison = evidence.expectedAddress?.trim() && fields.address ? compareAddresses(evidence.expectedAddress, fields.address) : null;
  const rejected: string[] = [];
  const review: string[] = [];

  if (!fields.issueDate && !fields.address && !fields.fullName) rejected.push('UNREADABLE_DOCUMENT');
  if (fields.issueDate && fields.issueDate < oldestAccepted(today)) rejected.push('DOCUMENT_TOO_OLD');
  if (comparison && comparison.score < ADDRESS_MISMATCH) rejected.push('ADDRESS_MISMATCH');

  if (!fields.issueDate) review.push('ISSUE_DATE_NOT_READ');
  else if (documentAgeDays !== null && documentAgeDays < -FUTURE_TOLERANCE_DAYS) review.push('ISSUE_DATE_IN_FUTURE');
  if (!fields.address) review.push('ADDRESS_NOT_READ');
  if (comparison && !comparison.match && comparison.score >= ADDRESS_MISMATCH) review.push('ADDRESS_PARTIAL_MATCH');
  if (evidence.textConfidence < MIN_TEXT_CONFIDENCE) review.push('LOW_TEXT_CONFIDENCE');

  if (rejected.includes('UNREADABLE_DOCUMENT'))
    return { decision: 'REJECTED', reasons: ['UNREADABLE_DOCUMENT'], documentAgeDays, comparison };
  if (rejected.length) return { decision: 'REJECTED', reasons: [...rejected, ...review], documentAgeDays, comparison };
  if (review.length) return { decision: 'MANUAL_REVIEW', reasons: review, documentAgeDays, comparison };
  return { decision: 'VERIFIED', reasons: [], documentAgeDays, comparison };
}
