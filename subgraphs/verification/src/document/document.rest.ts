import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import type { ResponseMapping } from '../../../../platform/rest/mapping.js';
import { connectionSlice, pageBody, PAGE_QUERY } from '../../../../platform/rest/paging.js';
import type { Route } from '../../../../platform/rest/route.js';

const DOCUMENT_VERIFICATION = /* GraphQL */ `
  fragment DocumentVerificationFields on DocumentVerification {
    id
    userId
    documentType
    documentCountry
    frontImageUrl
    backImageUrl
    status
    extractedData {
      fullName
      dateOfBirth
      documentNumber
      expiryDate
      nationality
    }
    confidence
    reasons
    checks {
      mrzFound
      mrzValid
      mrzFailedChecks
      expired
      faceFound
      sharpness
      ocrConfidence
    }
    verifiedAt
    checkedAt
    reviewedBy
    reviewNotes
    reviewedAt
    imagesDeletedAt
    createdAt
    updatedAt
  }
`;

const DOCUMENT_TYPES = ['ID_CARD', 'PASSPORT', 'DRIVER_LICENSE', 'RESIDENCE_PERMIT'] as const;
/** The spec's record: `backImageUrl` only when a back image was sent. */
const DOCUMENT_BODY: ResponseMapping = { keepIf: { backImageUrl: (record) => record.backImageUrl !== null } };

export const documentRoutes: Route[] = [
  {
    method: 'POST',
    path: '/verifications/document',
    summary: 'Submit an identity document (multipart); 201 PENDING, checked in the background (document.verified / document.rejected)',
    body: [
      { name: 'userId', type: 'string', required: true },
      { name: 'documentType', type: { enum: DOCUMENT_TYPES }, required: true },
      { name: 'documentCountry', type: 'string', required: true, description: 'Uppercase ISO 3166-1 alpha-2' },
    ],
    files: [
      { name: 'frontImage', required: true, description: 'JPEG, PNG, WebP or HEIC, at most 10 MB' },
      { name: 'backImage', description: 'Required for every document type but PASSPORT' },
    ],
    example: { userId: 'user_1001', documentType: 'PASSPORT', documentCountry: 'KE' },
    operation: /* GraphQL */ `
      mutation CreateDocumentVerification($input: CreateDocumentVerificationInput!) {
        createDocumentVerification(input: $input) {
          documentVerification {
            ...DocumentVerificationFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${DOCUMENT_VERIFICATION}
      ${USER_ERRORS}
    `,
    variables: ({ body, files }) => ({ input: { ...body, frontImage: files.frontImage, backImage: files.backImage } }),
    result: (data) => data.createDocumentVerification.documentVerification,
    response: DOCUMENT_BODY,
    status: 201,
  },
  {
    method: 'GET',
    path: '/verifications/document/:id',
    summary: 'Get a document verification',
    operation: /* GraphQL */ `
      query DocumentVerification($id: ID!) {
        documentVerification(id: $id) {
          ...DocumentVerificationFields
        }
      }
      ${DOCUMENT_VERIFICATION}
    `,
    variables: ({ params }) => ({ id: params.id }),
    response: DOCUMENT_BODY,
    notFound: 'Document verification',
  },
  {
    method: 'GET',
    path: '/verifications/document/user/:userId',
    summary: "List a user's document verifications",
    query: PAGE_QUERY,
    operation: /* GraphQL */ `
      query DocumentVerificationsByUser($userId: String!, $first: Int, $after: String) {
        documentVerifications(filter: { userId: $userId }, first: $first, after: $after) {
          nodes {
            ...DocumentVerificationFields
          }
          totalCount
        }
      }
      ${DOCUMENT_VERIFICATION}
    `,
    variables: ({ params, query }) => ({ userId: params.userId, ...connectionSlice(query) }),
    result: (data, { query }) => pageBody(data.documentVerifications, query),
    response: { ...DOCUMENT_BODY, records: 'data' },
  },
];
