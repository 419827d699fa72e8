import { ApiError, type UserError } from './api';
import type { MessageKey } from './i18n';

/**
 * What the API said went wrong, as an instruction the person can follow (a message key of
 * messages/*.json): never a code or the API's own wording. The API's messages are read only to
 * tell apart the cases one code covers (a photo with no face, with two, turned away…).
 */
export type Problem = { key: MessageKey; values?: Record<string, string | number> };

const FACE_PROBLEMS: Array<[RegExp, MessageKey]> = [
  [/shows no face|no face/i, 'error.face.none'],
  [/shows \d+ faces|faces: only/i, 'error.face.many'],
  [/must face the camera|turned/i, 'error.face.turned'],
];

const MESSAGE_PROBLEMS: Array<[RegExp, MessageKey]> = [
  [/E\.164/i, 'error.phone.format'],
  [/FIXED_LINE|line type|mobile/i, 'error.phone.landline'],
  [/not a valid phone number/i, 'error.phone.invalid'],
  [/disposable/i, 'error.email.disposable'],
  [/email/i, 'error.email.invalid'],
  [/not a readable image|unreadable|corrupt/i, 'error.unreadable'],
];

export function describe(error: unknown): Problem {
  if (!(error instanceof ApiError)) return { key: 'error.generic' };
  switch (error.code) {
    case 'NETWORK':
      return { key: 'error.network' };
    case 'UNSUPPORTED_MEDIA_TYPE':
      return { key: 'error.unsupportedMedia' };
    case 'PAYLOAD_TOO_LARGE':
      return { key: 'error.tooLarge' };
    case 'RATE_LIMITED':
      return { key: 'error.rateLimited' };
    case 'UNAUTHENTICATED':
      return { key: 'error.sessionEnded' };
    case 'FORBIDDEN':
      return { key: 'error.forbidden' };
    case 'CONFLICT':
      return { key: 'error.conflict' };
  }
  for (const [pattern, key] of [...FACE_PROBLEMS, ...MESSAGE_PROBLEMS]) if (pattern.test(error.message)) return { key };
  return { key: 'error.generic' };
}

/** The first of a payload's user errors as an ApiError (so `describe` reads both kinds alike). */
export const userError = (errors: UserError[] | null | undefined): ApiError | null =>
  errors?.length ? new ApiError(errors[0]!.message, errors[0]!.code, undefined, errors[0]!.field) : null;

/** A document's rejection reasons (`MRZ_CHECK_DIGIT_FAILED:birthDate`) as instructions, without repeats. */
export function documentReasons(reasons: string[]): MessageKey[] {
  const keys = reasons.map((reason): MessageKey => {
    const code = reason.split(':')[0];
    switch (code) {
      case 'MRZ_CHECK_DIGIT_FAILED':
      case 'MRZ_FIELD_UNCERTAIN':
      case 'MRZ_UNKNOWN_STATE_CODE':
      case 'PRINTED_FIELDS_DIFFER_FROM_MRZ':
        return 'document.reason.mrz';
      case 'MRZ_NOT_FOUND':
        return 'document.reason.mrzNotFound';
      case 'DOCUMENT_EXPIRED':
        return 'document.reason.expired';
      case 'NO_FACE_ON_DOCUMENT':
      case 'FACE_UNCLEAR':
        return 'document.reason.face';
      case 'DOCUMENT_TYPE_MISMATCH':
        return 'document.reason.type';
      case 'COUNTRY_MISMATCH':
        return 'document.reason.country';
      case 'IMAGE_TOO_BLURRY':
      case 'LOW_IMAGE_QUALITY':
      case 'POOR_LIGHTING':
      case 'LOW_TEXT_CONFIDENCE':
      case 'FIELDS_NOT_READ':
        return 'document.reason.quality';
      default:
        return 'document.reason.other';
    }
  });
  return [...new Set(keys)];
}

/** A proof of address's rejection reasons as instructions. */
export function addressReasons(reasons: string[]): MessageKey[] {
  const keys = reasons.map((reason): MessageKey => {
    switch (reason.split(':')[0]) {
      case 'DOCUMENT_TOO_OLD':
        return 'address.reason.tooOld';
      case 'ADDRESS_MISMATCH':
      case 'ADDRESS_PARTIAL_MATCH':
        return 'address.reason.mismatch';
      case 'ISSUE_DATE_IN_FUTURE':
      case 'ISSUE_DATE_NOT_READ':
        return 'address.reason.date';
      default:
        return 'address.reason.unreadable';
    }
  });
  return [...new Set(keys)];
}

/** Why a liveness session failed (`CHALLENGE_FAILED:TURN_LEFT`), as an instruction. */
export function livenessFailure(reason: string | null | undefined): MessageKey {
  switch (reason?.split(':')[0]) {
    case 'FACE_MISMATCH':
      return 'liveness.failure.mismatch';
    case 'SPOOF_SUSPECTED':
      return 'liveness.failure.spoof';
    case 'SESSION_EXPIRED':
      return 'liveness.failure.expired';
    default:
      return 'liveness.failure.challenge';
  }
}
