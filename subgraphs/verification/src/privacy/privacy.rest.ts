import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import { connectionSlice, pageBody, PAGE_QUERY } from '../../../../platform/rest/paging.js';
import type { Field, Route } from '../../../../platform/rest/route.js';

const USER_ERASURE = /* GraphQL */ `
  fragment UserErasureFields on UserErasure {
    id
    userId
    status
    services {
      service
      status
      completedAt
      erased {
        kind
        count
      }
      attempts
      lastError
    }
    createdAt
    updatedAt
    completedAt
  }
`;

const RETENTION_POLICY = /* GraphQL */ `
  fragment RetentionPolicyFields on RetentionPolicy {
    documentsDays
    livenessFramesDays
    notificationBodiesDays
    providerResponsesDays
    eventPayloadsDays
    customized
    updatedAt
    lastEnforcedAt
  }
`;

const DAYS = 'Days from the record that holds it, 1 to 36500; null puts the default back, absent leaves it as it is';
const RETENTION_FIELDS: readonly Field[] = [
  { name: 'documentsDays', type: 'integer', description: `Identity document images and proofs of address. ${DAYS}` },
  { name: 'livenessFramesDays', type: 'integer', description: `Liveness photos and the faces read from them. ${DAYS}` },
  { name: 'notificationBodiesDays', type: 'integer', description: `Notification data and rendered messages. ${DAYS}` },
  { name: 'providerResponsesDays', type: 'integer', description: `Raw provider answers. ${DAYS}` },
  { name: 'eventPayloadsDays', type: 'integer', description: `Outbox payloads and webhook delivery bodies. ${DAYS}` },
];

/**
 * Privacy (issue 16, not in the published specs): erasure of a user in every service, the export of
 * everything held about them, and retention periods. Verification keys with the `privacy`
 * permission (`privacy:write` to erase and set periods, `privacy:read` for the rest).
 */
export const privacyRoutes: Route[] = [
  {
    method: 'POST',
    path: '/privacy/erasures',
    summary:
      'Erase a user’s personal data in every service: 202 with the erasure (PENDING until every service has done its part; a pending one is returned again); webhook user.erased when done',
    body: [{ name: 'userId', type: 'string', required: true }],
    example: { userId: 'user_1001' },
    operation: /* GraphQL */ `
      mutation EraseUser($input: EraseUserInput!) {
        eraseUser(input: $input) {
          userErasure {
            ...UserErasureFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${USER_ERASURE}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.eraseUser.userErasure,
    status: 202,
  },
  {
    method: 'GET',
    path: '/privacy/erasures',
    summary: 'List the organization’s erasures, newest first (of one user, in one status)',
    query: [
      { name: 'userId', type: 'string', description: 'Only this user’s' },
      { name: 'status', type: { enum: ['PENDING', 'COMPLETED'] }, description: 'Only in this status' },
      ...PAGE_QUERY,
    ],
    operation: /* GraphQL */ `
      query UserErasures($filter: UserErasureFilter, $first: Int, $after: String) {
        userErasures(filter: $filter, first: $first, after: $after) {
          nodes {
            ...UserErasureFields
          }
          totalCount
        }
      }
      ${USER_ERASURE}
    `,
    variables: ({ query }) => ({ filter: { userId: query.userId, status: query.status }, ...connectionSlice(query) }),
    result: (data, { query }) => pageBody(data.userErasures, query),
  },
  {
    method: 'GET',
    path: '/privacy/erasures/:id',
    summary: 'Get an erasure: each service’s part, what it erased, and when',
    operation: /* GraphQL */ `
      query UserErasure($id: ID!) {
        userErasure(id: $id) {
          ...UserErasureFields
        }
      }
      ${USER_ERASURE}
    `,
    variables: ({ params }) => ({ id: params.id }),
    notFound: 'User erasure',
  },
  {
    method: 'GET',
    path: '/privacy/users/:userId/export',
    summary:
      'Everything held about a user in every service, as one JSON document (a subject access request); files are links served to your organization only',
    operation: /* GraphQL */ `
      mutation ExportUser($input: ExportUserInput!) {
        exportUser(input: $input) {
          userDataExport {
            userId: id
            exportedAt
            verification
            risk
            notify
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${USER_ERRORS}
    `,
    variables: ({ params }) => ({ input: { userId: params.userId } }),
    result: (data) => data.exportUser.userDataExport,
  },
  {
    method: 'GET',
    path: '/privacy/retention',
    summary: 'How long each kind of personal data is kept (days; the defaults where none was set) and when it was last enforced',
    operation: /* GraphQL */ `
      query RetentionPolicy {
        retentionPolicy {
          ...RetentionPolicyFields
        }
      }
      ${RETENTION_POLICY}
    `,
    variables: () => ({}),
  },
  {
    method: 'PUT',
    path: '/privacy/retention',
    summary: 'Set retention periods (days): a scheduled sweep removes what is past them from the database and the file store',
    body: RETENTION_FIELDS,
    example: { documentsDays: 2555, notificationBodiesDays: 30 },
    operation: /* GraphQL */ `
      mutation UpdateRetentionPolicy($input: UpdateRetentionPolicyInput!) {
        updateRetentionPolicy(input: $input) {
          retentionPolicy {
            ...RetentionPolicyFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${RETENTION_POLICY}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.updateRetentionPolicy.retentionPolicy,
  },
];
