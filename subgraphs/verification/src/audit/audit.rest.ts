import type { Field, Route } from '../../../../platform/rest/route.js';
import { connectionSlice, PAGE_QUERY, pageBody } from '../../../../platform/rest/paging.js';
import { USER_ERRORS } from '../../../../platform/rest/fragments.js';

const AUDIT_ENTRY = /* GraphQL */ `
  fragment AuditEntryFields on AuditEntry {
    id
    occurredAt
    action
    actor {
      kind
      clientId
      clientName
      sessionUserId
    }
    reviewer
    resourceType
    resourceId
    userId
    details
    hash
    previousHash
  }
`;

const ORGANIZATION_REENCRYPTION = /* GraphQL */ `
  fragment OrganizationReencryptionFields on OrganizationReencryption {
    organizationId
    keyVersion
    values
    files
  }
`;

const ACTIONS = [
  'FILE_VIEWED',
  'IDENTITY_VERIFICATION_REVIEWED',
  'DOCUMENT_VERIFICATION_REVIEWED',
  'ADDRESS_VERIFICATION_REVIEWED',
  'BUSINESS_VERIFICATION_REVIEWED',
  'COGNITIVE_KYC_CHECK_REVIEWED',
  'AML_MATCH_RESOLVED',
  'WATCHLIST_ALERT_REVIEWED',
  'RISK_RULE_CHANGED',
  'API_CLIENT_REVOKED',
  'API_CLIENT_ROTATED',
  'DATA_KEY_ROTATED',
  'DATA_REENCRYPTED',
  'USER_ERASED',
  'USER_EXPORTED',
];

const AUDIT_QUERY: Field[] = [
  { name: 'userId', type: 'string', description: 'Only entries about this user' },
  { name: 'action', type: { enum: ACTIONS }, description: 'Only entries of this action' },
  { name: 'resourceId', type: 'string', description: 'Only entries about this record' },
  ...PAGE_QUERY,
];

/** The audit trail (verification keys with `audit:read`) and the operator's key operations (X-Admin-Secret). */
export const auditRoutes: Route[] = [
  {
    method: 'GET',
    path: '/audit/entries',
    summary: 'List the organization’s audit trail, newest first (of one user, one action or one record)',
    query: AUDIT_QUERY,
    operation: /* GraphQL */ `
      query AuditEntries($filter: AuditEntryFilter, $first: Int, $after: String) {
        auditEntries(filter: $filter, first: $first, after: $after) {
          nodes {
            ...AuditEntryFields
          }
          totalCount
        }
      }
      ${AUDIT_ENTRY}
    `,
    variables: ({ query }) => ({
      filter: { userId: query.userId ?? null, action: query.action ?? null, resourceId: query.resourceId ?? null },
      ...connectionSlice(query),
    }),
    result: (data, { query }) => pageBody(data.auditEntries, query),
    response: { records: 'data' },
  },
  {
    method: 'GET',
    path: '/audit/verify',
    summary: 'Recompute the organization’s audit chain and report the first entry that does not hold',
    operation: /* GraphQL */ `
      query AuditChainVerification {
        auditChainVerification {
          valid
          entriesChecked
          firstBrokenEntry {
            id
            reason
          }
          checkedAt
        }
      }
    `,
    variables: () => ({}),
  },
  {
    method: 'POST',
    path: '/admin/data-keys/rotate',
    summary:
      'Rotate an organization’s data encryption key (header X-Admin-Secret): new data uses the new version at once; stored data is re-encrypted unless reencrypt is false',
    body: [
      { name: 'organizationId', type: 'string', required: true, description: 'The organization' },
      { name: 'reencrypt', type: 'boolean', description: 'Default true' },
    ],
    example: { organizationId: '0b9c2f3e-6d1a-4c8e-9f7b-2a5d8e1c4b60', reencrypt: true },
    operation: /* GraphQL */ `
      mutation RotateOrganizationDataKey($input: RotateOrganizationDataKeyInput!) {
        rotateOrganizationDataKey(input: $input) {
          keyVersion
          reencryption {
            ...OrganizationReencryptionFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${ORGANIZATION_REENCRYPTION}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({
      input: { organizationId: body.organizationId, ...(body.reencrypt != null && { reencrypt: body.reencrypt }) },
    }),
    result: (data) => ({
      keyVersion: data.rotateOrganizationDataKey.keyVersion,
      reencryption: data.rotateOrganizationDataKey.reencryption,
    }),
    status: 201,
  },
  {
    method: 'POST',
    path: '/admin/data-keys/reencrypt',
    summary: 'Re-encrypt every encrypted value and file of an organization with its newest data key (header X-Admin-Secret)',
    body: [{ name: 'organizationId', type: 'string', required: true, description: 'The organization' }],
    example: { organizationId: '0b9c2f3e-6d1a-4c8e-9f7b-2a5d8e1c4b60' },
    operation: /* GraphQL */ `
      mutation ReencryptOrganizationData($input: ReencryptOrganizationDataInput!) {
        reencryptOrganizationData(input: $input) {
          reencryption {
            ...OrganizationReencryptionFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${ORGANIZATION_REENCRYPTION}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: { organizationId: body.organizationId } }),
    result: (data) => data.reencryptOrganizationData.reencryption,
  },
];
