import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import type { Route } from '../../../../platform/rest/route.js';

const COGNITIVE_KYC_CHECK = /* GraphQL */ `
  fragment CognitiveKycCheckFields on CognitiveKycCheck {
    id
    userId
    decision
    confidence
    faceMatchScore
    faceMatchReasoning
    documentFields {
      fullName
      dateOfBirth
      documentNumber
      expiryDate
      nationality
      documentType
    }
    fraudIndicators {
      tampering
      photoManipulation
      expiredDocument
      blurryImage
    }
    fraudHistory {
      priorVerifications
      flaggedAttempts
      riskLevel
    }
    reasons
    timestamp
  }
`;

/** An 8×8 grey JPEG: the shape of a request (a real selfie shows exactly one face). */
const TINY_JPEG =
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAIAAgDASIAAhEBAxEB/8QAFAABAAAAAAAAAAAAAAAAAAAAAP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAUAQEAAAAAAAAAAAAAAAAAAAAA/8QAFBEBAAAAAAAAAAAAAAAAAAAAAP/aAAwDAQACEQMRAD8AAA//2Q==';

export const cognitiveKycRoutes: Route[] = [
  {
    method: 'POST',
    path: '/cognitive-kyc/verify',
    summary:
      'AI identity check: compare a selfie with an identity document and check both for fraud; 200 with the decision (APPROVED, REJECTED, MANUAL_REVIEW)',
    body: [
      { name: 'userId', type: 'string', required: true },
      {
        name: 'selfieBase64',
        type: 'string',
        required: true,
        description: 'Base64 image (JPEG, PNG, WebP or HEIC, at most 10 MB) with exactly one face',
      },
      {
        name: 'documentBase64',
        type: 'string',
        required: true,
        description: 'Base64 image of the document (a passport’s data page or a card’s front)',
      },
      { name: 'selfieMimeType', type: 'string', description: 'Default image/jpeg; an image type (the bytes decide)' },
      { name: 'documentMimeType', type: 'string', description: 'Default image/jpeg; an image type (the bytes decide)' },
    ],
    // two base64 images of up to 10 MB each
    bodyLimit: '28mb',
    example: {
      userId: 'user_1001',
      selfieBase64: TINY_JPEG,
      documentBase64: TINY_JPEG,
      selfieMimeType: 'image/jpeg',
      documentMimeType: 'image/jpeg',
    },
    operation: /* GraphQL */ `
      mutation CreateCognitiveKycCheck($input: CreateCognitiveKycCheckInput!) {
        createCognitiveKycCheck(input: $input) {
          cognitiveKycCheck {
            ...CognitiveKycCheckFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${COGNITIVE_KYC_CHECK}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createCognitiveKycCheck.cognitiveKycCheck,
  },
  {
    method: 'POST',
    path: '/cognitive-kyc/fraud-check',
    summary: 'Fraud history: the organization’s earlier records of a user, a document number or a name (at least one; 400 otherwise)',
    body: [
      { name: 'userId', type: 'string' },
      { name: 'documentNumber', type: 'string' },
      { name: 'fullName', type: 'string', description: 'Compared without accents, case or punctuation' },
    ],
    example: { userId: 'user_1001', documentNumber: 'A12345678', fullName: 'Amina Grace Wanjiku' },
    operation: /* GraphQL */ `
      query FraudHistory($userId: String, $documentNumber: String, $fullName: String) {
        fraudHistory(userId: $userId, documentNumber: $documentNumber, fullName: $fullName) {
          matches
          riskLevel
          history {
            verificationId
            source
            userId
            date
            decision
            reason
            flagged
          }
          recommendation
        }
      }
    `,
    variables: ({ body }) => ({ userId: body.userId, documentNumber: body.documentNumber, fullName: body.fullName }),
  },
];
