import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import type { ResponseMapping } from '../../../../platform/rest/mapping.js';
import type { Route } from '../../../../platform/rest/route.js';

const BIOMETRIC_DEDUP_CHECK = /* GraphQL */ `
  fragment BiometricDedupCheckFields on BiometricDedupCheck {
    id
    userId
    status
    matchFound
    enrolled
    matches {
      matchedUserId
      similarity
      enrolledAt
    }
    threshold
    errorReason
    checkedAt
    createdAt
  }
`;

/** An 8 × 8 PNG without a face: a valid request (its check is ERROR), small enough for an example. */
const EXAMPLE_SELFIE =
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPoWHUGK2IYWhIAwKd/gaPL2LsAAAAASUVORK5CYII=';

/** The spec's record: `matches` only on a duplicate. */
const DEDUP_BODY: ResponseMapping = { keepIf: { matches: (check) => check.status === 'DUPLICATE' } };

export const biometricsRoutes: Route[] = [
  {
    method: 'POST',
    path: '/biometrics/dedup/check',
    summary: 'Check whether a selfie’s face is enrolled for another user, and enrol it when unique',
    body: [
      { name: 'userId', type: 'string', required: true },
      { name: 'selfieBase64', type: 'string', required: true, description: 'JPEG or PNG, base64, one face, at most 10 MB' },
      { name: 'selfieMimeType', type: 'string', description: 'Default image/jpeg' },
      { name: 'threshold', type: 'number', description: '0.0–1.0, default 0.90 (calibrated: see README)' },
      { name: 'enroll', type: 'boolean', description: 'Default true' },
    ],
    example: { userId: 'user_1001', selfieBase64: EXAMPLE_SELFIE, selfieMimeType: 'image/png', threshold: 0.9, enroll: true },
    // two base64 images' worth: the gateway accepts as much from verification keys
    bodyLimit: '28mb',
    operation: /* GraphQL */ `
      mutation CheckBiometricDuplicate($input: CheckBiometricDuplicateInput!) {
        checkBiometricDuplicate(input: $input) {
          biometricDedupCheck {
            ...BiometricDedupCheckFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${BIOMETRIC_DEDUP_CHECK}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.checkBiometricDuplicate.biometricDedupCheck,
    response: DEDUP_BODY,
  },
  {
    method: 'GET',
    path: '/biometrics/dedup/:id',
    summary: 'Get a biometric dedup check',
    operation: /* GraphQL */ `
      query BiometricDedupCheck($id: ID!) {
        biometricDedupCheck(id: $id) {
          ...BiometricDedupCheckFields
        }
      }
      ${BIOMETRIC_DEDUP_CHECK}
    `,
    variables: ({ params }) => ({ id: params.id }),
    response: DEDUP_BODY,
    notFound: 'Biometric dedup check',
  },
];
