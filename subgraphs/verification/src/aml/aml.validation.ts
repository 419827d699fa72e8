import { LIST_KINDS, type ListKind } from '../../../../screening/index.js';
import { screenedPersonErrors } from '../screened-person/screened-person.js';
import type { AmlRequest } from './aml.entity.js';

export const DEFAULT_MATCH_THRESHOLD = 0.85;
export const MAX_BATCH_SUBJECTS = 100;

/** Value checks of an AML request record (422); GraphQL has already checked presence and types (400). */
export function validateAmlRequest(req: AmlRequest, prefix = ''): string[] {
  const errors: string[] = [];
  const at = (field: string) => `${prefix}${field}`;
  if (!req.userId?.trim()) errors.push(`${at('userId')} must not be empty`);
  errors.push(...screenedPersonErrors(req, prefix));
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
