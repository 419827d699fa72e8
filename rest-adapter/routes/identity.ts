import { IDENTITY_VERIFICATION } from '../fragments.js';
import type { Route } from '../route.js';

const TIERS = ['BASIC', 'STANDARD', 'ENHANCED'] as const;
const DECISIONS = ['VERIFIED', 'REJECTED'] as const;

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
          verification {
            ...IdentityVerificationFields
          }
        }
      }
      ${IDENTITY_VERIFICATION}
    `,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createIdentityVerification.verification,
    status: (data) => (data.createIdentityVerification.created ? 201 : 200),
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
  },
  {
    method: 'GET',
    path: '/verifications/identity/user/:userId',
    summary: "List a user's identity verifications",
    query: [
      { name: 'page', type: 'integer', description: 'Default 1' },
      { name: 'limit', type: 'integer', description: 'Default 20' },
    ],
    operation: /* GraphQL */ `
      query IdentityVerificationsByUser($userId: String!, $page: Int, $limit: Int) {
        identityVerificationsByUser(userId: $userId, page: $page, limit: $limit) {
          data {
            ...IdentityVerificationFields
          }
          total
          page
          limit
        }
      }
      ${IDENTITY_VERIFICATION}
    `,
    variables: ({ params, query }) => ({ userId: params.userId, page: query.page, limit: query.limit }),
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
      mutation ReviewIdentityVerification($id: ID!, $input: ReviewIdentityVerificationInput!) {
        reviewIdentityVerification(id: $id, input: $input) {
          ...IdentityVerificationFields
        }
      }
      ${IDENTITY_VERIFICATION}
    `,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
  },
  {
    method: 'POST',
    path: '/verifications/identity/:id/restart',
    summary: 'Invalidate an identity verification and start a new one',
    operation: /* GraphQL */ `
      mutation RestartIdentityVerification($id: ID!) {
        restartIdentityVerification(id: $id) {
          ...IdentityVerificationFields
        }
      }
      ${IDENTITY_VERIFICATION}
    `,
    variables: ({ params }) => ({ id: params.id }),
  },
];
