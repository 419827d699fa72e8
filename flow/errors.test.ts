import { ApiError } from './src/api';
import { describe as explain, documentReasons, livenessFailure, userError } from './src/errors';
import { flowOutcome, redirectTarget } from './src/outcome';
import en from './messages/en.json';

/** What the API says is turned into instructions (message keys), never shown as a code. */
describe('flow errors and outcome', () => {
  it.each([
    [new ApiError('photo must be a JPEG, PNG, WebP or HEIC image', 'UNSUPPORTED_MEDIA_TYPE', 415), 'error.unsupportedMedia'],
    [new ApiError('HTTP 413', 'PAYLOAD_TOO_LARGE', 413), 'error.tooLarge'],
    [new ApiError('Session token expired', 'UNAUTHENTICATED', 401), 'error.sessionEnded'],
    [new ApiError('network', 'NETWORK'), 'error.network'],
    [
      userError([{ field: ['input', 'selfie'], code: 'VALIDATION_FAILED', message: 'selfie shows no face: take the photo in good light' }]),
      'error.face.none',
    ],
    [
      userError([
        { field: ['input', 'selfie'], code: 'VALIDATION_FAILED', message: 'selfie shows 2 faces: only the user may be in the picture' },
      ]),
      'error.face.many',
    ],
    [
      userError([
        { field: ['input', 'selfie'], code: 'VALIDATION_FAILED', message: 'selfie must face the camera: the head is turned 23° sideways' },
      ]),
      'error.face.turned',
    ],
    [new ApiError('phoneNumber must be in E.164 format: + then the country code', 'BAD_USER_INPUT'), 'error.phone.format'],
    [new ApiError('something new', 'INTERNAL'), 'error.generic'],
    [new Error('not from the API'), 'error.generic'],
  ])('%s → %s', (error, key) => {
    expect(explain(error).key).toBe(key);
    expect(en).toHaveProperty([key]);
  });

  it('explains document and liveness failures with keys of the message files', () => {
    const keys = documentReasons(['MRZ_CHECK_DIGIT_FAILED:birthDate', 'MRZ_CHECK_DIGIT_FAILED:composite', 'SOMETHING_NEW']);
    expect(keys).toEqual(['document.reason.mrz', 'document.reason.other']);
    expect(livenessFailure('CHALLENGE_FAILED:TURN_LEFT')).toBe('liveness.failure.challenge');
    expect(livenessFailure('FACE_MISMATCH')).toBe('liveness.failure.mismatch');
    for (const key of [...keys, livenessFailure('SPOOF_SUSPECTED'), livenessFailure('SESSION_EXPIRED')]) expect(en).toHaveProperty([key]);
  });

  it('a flow is VERIFIED when every step passed, REJECTED when one failed, PENDING while one is reviewed', () => {
    expect(flowOutcome(['DOCUMENT', 'EMAIL'], { DOCUMENT: 'PASSED', EMAIL: 'PASSED' })).toBe('VERIFIED');
    expect(flowOutcome(['DOCUMENT', 'EMAIL'], { DOCUMENT: 'FAILED', EMAIL: 'PASSED' })).toBe('REJECTED');
    expect(flowOutcome(['DOCUMENT', 'EMAIL'], { DOCUMENT: 'MANUAL_REVIEW', EMAIL: 'PASSED' })).toBe('PENDING');
    expect(redirectTarget('https://acme.example/done?x=1', 'f1', 'VERIFIED')).toBe(
      'https://acme.example/done?x=1&flowId=f1&status=VERIFIED',
    );
    expect(redirectTarget('javascript:alert(1)', 'f1', 'VERIFIED')).toBeNull();
  });
});
