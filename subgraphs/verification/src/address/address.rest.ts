import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import { connectionSlice, pageBody, PAGE_QUERY } from '../../../../platform/rest/paging.js';
import type { Route } from '../../../../platform/rest/route.js';

/** The spec's address record first (`id` … `completedAt`), then what the check measured. */
const ADDRESS_VERIFICATION = /* GraphQL */ `
  fragment AddressVerificationFields on AddressVerification {
    id
    userId
    documentType
    status
    createdAt
    extractedData {
      fullName
      address
      issueDate
      issuer
    }
    addressMatch
    documentAge
    completedAt
    country
    documentSource
    documentUrl
    documentImageUrl
    expectedAddress
    addressMatchScore
    addressMatchExplanation
    documentAgeDays
    textConfidence
    reasons
    checkedAt
    reviewedBy
    reviewNotes
    reviewedAt
    updatedAt
  }
`;

const DOCUMENT_TYPES = ['UTILITY_BILL', 'BANK_STATEMENT', 'TAX_DOCUMENT', 'GOVERNMENT_LETTER'] as const;

export const addressRoutes: Route[] = [
  {
    method: 'POST',
    path: '/verifications/address',
    summary:
      'Submit a proof of address: Form A multipart (document, country), Form B JSON (documentUrl); 201 PROCESSING, checked in the background (address.verified / address.rejected / address.manual_review)',
    body: [
      { name: 'userId', type: 'string', required: true },
      { name: 'documentType', type: { enum: DOCUMENT_TYPES }, required: true },
      { name: 'country', type: 'string', required: true, description: 'Uppercase ISO 3166-1 alpha-2' },
      { name: 'expectedAddress', type: 'string', description: 'The address the user declared, compared with the document’s' },
    ],
    files: [{ name: 'document', required: true, description: 'JPEG, PNG, WebP or HEIC, at most 10 MB' }],
    json: [
      { name: 'userId', type: 'string', required: true },
      { name: 'documentType', type: { enum: DOCUMENT_TYPES }, required: true },
      {
        name: 'documentUrl',
        type: 'string',
        required: true,
        description: 'An http(s) URL of the image (at most 10 MB, public addresses only)',
      },
      { name: 'declaredAddress', type: 'string', description: 'The address the user declared, compared with the document’s' },
    ],
    example: { userId: 'user_1001', documentType: 'UTILITY_BILL', country: 'KE', expectedAddress: '12 Moi Avenue, Nairobi' },
    operation: /* GraphQL */ `
      mutation CreateAddressVerification($input: CreateAddressVerificationInput!) {
        createAddressVerification(input: $input) {
          addressVerification {
            ...AddressVerificationFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${ADDRESS_VERIFICATION}
      ${USER_ERRORS}
    `,
    variables: ({ body, files }) => {
      const { declaredAddress, ...rest } = body;
      // Form B (JSON) names a documentUrl; Form A (multipart) sends the file
      const formA = !('documentUrl' in body);
      return {
        input: {
          ...rest,
          ...(formA ? { document: files.document ?? null } : {}),
          ...(declaredAddress !== undefined && rest.expectedAddress === undefined ? { expectedAddress: declaredAddress } : {}),
        },
      };
    },
    result: (data) => data.createAddressVerification.addressVerification,
    status: 201,
  },
  {
    method: 'GET',
    path: '/verifications/address/user/:userId',
    summary: "List a user's address verifications",
    query: PAGE_QUERY,
    operation: /* GraphQL */ `
      query AddressVerificationsByUser($userId: String!, $first: Int, $after: String) {
        addressVerifications(filter: { userId: $userId }, first: $first, after: $after) {
          nodes {
            ...AddressVerificationFields
          }
          totalCount
        }
      }
      ${ADDRESS_VERIFICATION}
    `,
    variables: ({ params, query }) => ({ userId: params.userId, ...connectionSlice(query) }),
    result: (data, { query }) => pageBody(data.addressVerifications, query),
    response: { records: 'data' },
  },
  {
    method: 'GET',
    path: '/verifications/address/:id',
    summary: 'Get an address verification',
    operation: /* GraphQL */ `
      query AddressVerification($id: ID!) {
        addressVerification(id: $id) {
          ...AddressVerificationFields
        }
      }
      ${ADDRESS_VERIFICATION}
    `,
    variables: ({ params }) => ({ id: params.id }),
    notFound: 'Address verification',
  },
  {
    method: 'POST',
    path: '/verifications/address/:id/review',
    summary: 'Record a reviewer’s decision on an address verification in MANUAL_REVIEW (409 otherwise)',
    body: [
      { name: 'decision', type: { enum: ['VERIFIED', 'REJECTED'] }, required: true },
      { name: 'reviewedBy', type: 'string', required: true },
      { name: 'reviewNotes', type: 'string', required: true },
    ],
    example: { decision: 'VERIFIED', reviewedBy: 'officer@example.com', reviewNotes: 'Address confirmed with the utility' },
    operation: /* GraphQL */ `
      mutation ReviewAddressVerification($input: ReviewAddressVerificationInput!) {
        reviewAddressVerification(input: $input) {
          addressVerification {
            ...AddressVerificationFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${ADDRESS_VERIFICATION}
      ${USER_ERRORS}
    `,
    variables: ({ params, body }) => ({ input: { id: params.id, ...body } }),
    result: (data) => data.reviewAddressVerification.addressVerification,
  },
];
