import { LIST_KINDS, type ListKind } from '../../../../screening/index.js';
import { isCountryCode } from '../../../../platform/countries.js';
import type { AmlRequest } from './aml.entity.js';

export const DEFAULT_MATCH_THRESHOLD = 0.85;
export const MAX_BATCH_SUBJECTS = 100;

/** YYYY-MM-DD, a real calendar date, not in the future. */
export function dateOfBirthError(value: string, now = new Date()): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!m || !date || date.toISOString().slice(0, 10) !== value) return 'dateOfBirth must be a date in YYYY-MM-DD format';
  if (date.getTime() > now.getTime()) return 'dateOfBirth must not be in the future';
  if (Number(m[1]) < 1850) return 'dateOfBirth must be after 1850';
  return null;
}

/** Value checks of an AML request record (422); GraphQL has already checked presence and types (400). */
export function validateAmlRequest(req: AmlRequest, prefix = ''): string[] {
  const errors: string[] = [];
  const at = (field: string) => `${prefix}${field}`;
  if (!req.userId?.trim()) errors.push(`${at('userId')} must not be empty`);
  if (!req.fullName?.trim()) errors.push(`${at('fullName')} must not be empty`);
  else if (!/\p{L}/u.test(req.fullName)) errors.push(`${at('fullName')} must contain letters`);
  if (req.dateOfBirth != null) {
    const e = dateOfBirthError(req.dateOfBirth);
    if (e) errors.push(`${prefix}${e}`);
  }
  if (req.nationality != null && !isCountryCode(req.nationality)) {
    errors.push(`${at('nationality')} must be an uppercase ISO 3166-1 alpha-2 country code`);
  }
  if (req.documentNumber != null && !req.documentNumber.trim()) errors.push(`${at('documentNumber')} must not be empty`);
  if (req.matchThreshold != null && !(req.matchThreshold >= 0 && req.matchThreshold <= 1))
    errors.push(`${at('matchThreshold')} must be between 0 and 1`);
  if (req.lists != null) {
    if (!req.lists.length) errors.push(`${at('lists')} must contain at least one of: ${LIST_KINDS.join(', ')}`);
    else if (req.lists.some((l) => !LIST_KINDS.includes(l))) errors.push(`${at('lists')} must be among: ${LIST_KINDS.join(', ')}`);
  }
  return errors;
}

/** The request as stored: trimmed, defaults applied. */
export interface NormalisedAmlRequest {
  userId: string;
  fullName: string;
  dateOfBirth: string | null;
  nationality: string | null;
  documentNumber: string | null;
  matchThreshold: number;
  lists: ListKind[];
}

export function normaliseAmlRequest(req: AmlRequest): NormalisedAmlRequest {
  return {
    userId: req.userId.trim(),
    fullName: req.fullName.trim().replace(/\s+/g, ' '),
    dateOfBirth: req.dateOfBirth ?? null,
    nationality: req.nationality ?? null,
    documentNumber: req.documentNumber?.trim() || null,
    matchThreshold: req.matchThreshold ?? DEFAULT_MATCH_THRESHOLD,
    lists: req.lists?.length ? [...new Set(req.lists)] : [...LIST_KINDS],
  };
}
