import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import { connectionSlice, pageBody, PAGE_QUERY } from '../../../../platform/rest/paging.js';
import type { Route } from '../../../../platform/rest/route.js';

const MOBILE_MONEY_VERIFICATION = /* GraphQL */ `
  fragment MobileMoneyVerificationFields on MobileMoneyVerification {
    id
    userId
    phoneNumber
    provider
    country
    status
    accountHolder
    nameMatch
    nameMatchScore
    accountStatus
    verifiedAt
    createdAt
    expectedName
    nameMatchExplanation {
      summary
      threshold
      parts {
        expected
        holder
        how
        score
      }
    }
    failureReason
    adapter
    attempts
    checkedAt
    updatedAt
  }
`;

const PROVIDERS = ['MTN_MOMO', 'ORANGE_MONEY', 'AIRTEL_MONEY', 'MPESA', 'WAVE', 'FREE_MONEY', 'MOOV_MONEY'] as const;

/**
 * Mobile money: one path and body in both forms (Form A with /v1, Form B without). The operator
 * is asked while the request waits: 200 with the outcome, PROVIDER_ERROR included (COMPATIBILITY:
 * 200, not 201).
 */
export const mobileMoneyRoutes: Route[] = [
  {
    method: 'POST',
    path: '/verifications/mobile-money',
    summary:
      'Verify a mobile money account: 200 with VERIFIED, NAME_MISMATCH, NOT_FOUND or PROVIDER_ERROR (retry later); events mobile_money.verified / mobile_money.failed',
    body: [
      { name: 'userId', type: 'string', required: true },
      { name: 'phoneNumber', type: 'string', required: true, description: 'E.164, a mobile number of `country`' },
      { name: 'provider', type: { enum: PROVIDERS }, required: true },
      {
        name: 'country',
        type: 'string',
        required: true,
        description: 'Uppercase ISO 3166-1 alpha-2; the provider must run mobile money there',
      },
      { name: 'expectedName', type: 'string', description: 'Compared with the account holder’s name (nameMatch, nameMatchScore)' },
    ],
    example: { userId: 'user_1001', phoneNumber: '+233241234567', provider: 'MTN_MOMO', country: 'GH', expectedName: 'Kwame Mensah' },
    operation: /* GraphQL */ `
      mutation CreateMobileMoneyVerification($input: CreateMobileMoneyVerificationInput!) {
        createMobileMoneyVerification(input: $input) {
          mobileMoneyVerification {
            ...MobileMoneyVerificationFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${MOBILE_MONEY_VERIFICATION}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createMobileMoneyVerification.mobileMoneyVerification,
  },
  {
    method: 'GET',
    path: '/verifications/mobile-money/user/:userId',
    summary: "List a user's mobile money verifications (newest first; not in the spec, as every other resource's)",
    query: PAGE_QUERY,
    operation: /* GraphQL */ `
      query MobileMoneyVerificationsByUser($userId: String!, $first: Int, $after: String) {
        mobileMoneyVerifications(filter: { userId: $userId }, first: $first, after: $after) {
          nodes {
            ...MobileMoneyVerificationFields
          }
          totalCount
        }
      }
      ${MOBILE_MONEY_VERIFICATION}
    `,
    variables: ({ params, query }) => ({ userId: params.userId, ...connectionSlice(query) }),
    result: (data, { query }) => pageBody(data.mobileMoneyVerifications, query),
    response: { records: 'data' },
  },
  {
    method: 'GET',
    path: '/verifications/mobile-money/:id',
    summary: 'Get a mobile money verification',
    operation: /* GraphQL */ `
      query MobileMoneyVerification($id: ID!) {
        mobileMoneyVerification(id: $id) {
          ...MobileMoneyVerificationFields
        }
      }
      ${MOBILE_MONEY_VERIFICATION}
    `,
    variables: ({ params }) => ({ id: params.id }),
    notFound: 'Mobile money verification',
  },
  {
    method: 'POST',
    path: '/verifications/mobile-money/:id/retry',
    summary: 'Ask the operator again about a PROVIDER_ERROR verification (409 from another status; not in the spec)',
    operation: /* GraphQL */ `
      mutation RetryMobileMoneyVerification($input: RetryMobileMoneyVerificationInput!) {
        retryMobileMoneyVerification(input: $input) {
          mobileMoneyVerification {
            ...MobileMoneyVerificationFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${MOBILE_MONEY_VERIFICATION}
      ${USER_ERRORS}
    `,
    variables: ({ params }) => ({ input: { id: params.id } }),
    result: (data) => data.retryMobileMoneyVerification.mobileMoneyVerification,
  },
];
