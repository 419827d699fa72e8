import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import type { ResponseMapping } from '../../../../platform/rest/mapping.js';
import { connectionSlice, pageBody, PAGE_QUERY } from '../../../../platform/rest/paging.js';
import type { Route } from '../../../../platform/rest/route.js';

const IDENTITY_VERIFICATION = /* GraphQL */ `
  fragment IdentityVerificationFields on IdentityVerification {
    id
    userId
    tier
    overallStatus
    faceMatchScore
    verifiedAt
    steps {
      document
      liveness
      faceMatch
      aml
    }
    reasons
    reviewedBy
    reviewNotes
    reviewedAt
    invalidatedAt
    replacedById: replacedBy {
      id
    }
    restartedFromId: restartedFrom {
      id
    }
    createdAt
    updatedAt
  }
`;

const TIERS = ['BASIC', 'STANDARD', 'ENHANCED'] as const;
const DECISIONS = ['VERIFIED', 'REJECTED'] as const;
/** The spec's record: references to other verifications by id. */
const IDENTITY_BODY: ResponseMapping = { ids: ['replacedById', 'restartedFromId'] };

export const identityRoutes: Route[] = [
  {
    method: 'POST',
    path: '/verifications/identity',
    summary: 'Start an identity verification (201), or return the active one of the user (200)',
    body: [
      { name: 'userId', type: 'string', required: true },
      { name: 'tier', type: { enum: TIERS }, description: 'Default BASIC' },
    ],
    example: { userId: 'user_1001', tier: 'STANDARD' },
    operation: /* GraphQL */ `
      mutation CreateIdentityVerification($input: CreateIdentityVerificationInput!) {
        createIdentityVerification(input: $input) {
          created
          identityVerification {
            ...IdentityVerificationFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${IDENTITY_VERIFICATION}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createIdentityVerification.identityVerification,
    response: IDENTITY_BODY,
    created: (data) => data.createIdentityVerification.created,
  },
  {
    method: 'GET',
    path: '/verifications/identity/:id',
    summary: 'Get an identity verification',
    operation: /* GraphQL */ `
      query IdentityVerification($id: ID!) {
        identityVerification(id: $id) {
          ...IdentityVerificationFields
        }
      }
      ${IDENTITY_VERIFICATION}
    `,
    variables: ({ params }) => ({ id: params.id }),
    response: IDENTITY_BODY,
    notFound: 'Identity verification',
  },
  {
    method: 'GET',
    path: '/verifications/identity/user/:userId',
    summary: "List a user's identity verifications",
    query: PAGE_QUERY,
    operation: /* GraphQL */ `
      query IdentityVerificationsByUser($userId: String!, $first: Int, $after: String) {
        identityVerifications(filter: { userId: $userId }, first: $first, after: $after) {
          nodes {
            ...IdentityVerificationFields
          }
          totalCount
        }
      }
      ${IDENTITY_VERIFICATION}
    `,
    variables: ({ params, query }) => ({ userId: params.userId, ...connectionSlice(query) }),
    result: (data, { query }) => pageBody(data.identityVerifications, query),
    response: { ...IDENTITY_BODY, records: 'data' },
  },
  {
    method: 'POST',
    path: '/verifications/identity/:id/review',
    summary: 'Record a manual review decision',
    body: [
      { name: 'decision', type: { enum: DECISIONS }, required: true },
      { name: 'reviewedBy', type: 'string', required: true },
      { name: 'reviewNotes', type: 'string', required: true },
    ],
    example: { decision: 'VERIFIED', reviewedBy: 'officer@example.com', reviewNotes: 'Document and selfie checked' },
    operation: /* GraphQL */ `
      mutation ReviewIdentityVerification($input: ReviewIdentityVerificationInput!) {
        reviewIdentityVerification(input: $input) {
          identityVerification {
            ...IdentityVerificationFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${IDENTITY_VERIFICATION}
      ${USER_ERRORS}
    `,
    variables: ({ params, body }) => ({ input: { ...body, id: params.id } }),
    result: (data) => data.reviewIdentityVerification.identityVerification,
    response: IDENTITY_BODY,
  },
  {
    method: 'POST',
    path: '/verifications/identity/:id/restart',
    summary: 'Invalidate an identity verification and start a new one',
    operation: /* GraphQL */ `
      mutation RestartIdentityVerification($id: ID!) {
        restartIdentityVerification(input: { id: $id }) {
          identityVerification {
            ...IdentityVerificationFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${IDENTITY_VERIFICATION}
      ${USER_ERRORS}
    `,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.restartIdentityVerification.identityVerification,
    response: IDENTITY_BODY,
  },
];
