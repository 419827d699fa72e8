import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import type { Route } from '../../../../platform/rest/route.js';

const VERIFICATION_FLOW = /* GraphQL */ `
  fragment VerificationFlowFields on VerificationFlow {
    id
    userId
    status
    steps {
      step
      status
      checkId
    }
    tier
    identityVerificationId
    locale
    redirectUrl
    branding {
      logoUrl
      primaryColor
      accentColor
    }
    embedOrigins
    expiresAt
    openedAt
    createdAt
    updatedAt
  }
`;

/** Hosted verification flows (issue 32): not in the published specifications; shaped like their other records. */
export const flowRoutes: Route[] = [
  {
    method: 'POST',
    path: '/verifications/flows',
    summary: 'Create a hosted verification flow for a user: answers the one-use link to send them (url)',
    body: [
      { name: 'userId', type: 'string', required: true },
      {
        name: 'steps',
        type: { array: { enum: ['DOCUMENT', 'LIVENESS', 'PHONE', 'EMAIL', 'ADDRESS'] } },
        description: 'The steps, listed; or give tier',
      },
      { name: 'tier', type: { enum: ['BASIC', 'STANDARD', 'ENHANCED'] }, description: 'The steps of an identity tier; or list steps' },
      { name: 'locale', type: { enum: ['en', 'fr'] }, description: 'The page’s language, default en' },
      { name: 'redirectUrl', type: 'string', required: true, description: 'Where the page sends the person at the end' },
      { name: 'branding', type: 'object', description: '{logoUrl (https), primaryColor, accentColor (#rrggbb)}' },
      { name: 'embedOrigins', type: { array: 'string' }, description: 'Origins whose pages may embed the flow (the web component)' },
      { name: 'expiresInMinutes', type: 'integer', description: '5 to 1,440, default 30' },
    ],
    example: {
      userId: 'user_1001',
      steps: ['DOCUMENT', 'LIVENESS', 'PHONE'],
      locale: 'fr',
      redirectUrl: 'https://app.example.com/onboarding/done',
      branding: { primaryColor: '#0b5fff' },
    },
    operation: /* GraphQL */ `
      mutation CreateVerificationFlow($input: CreateVerificationFlowInput!) {
        createVerificationFlow(input: $input) {
          verificationFlow {
            ...VerificationFlowFields
          }
          url
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${VERIFICATION_FLOW}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ ...data.createVerificationFlow.verificationFlow, url: data.createVerificationFlow.url }),
    status: 201,
  },
  {
    method: 'GET',
    path: '/verifications/flows/:id',
    summary: 'Get a verification flow and where each of its steps stands',
    operation: /* GraphQL */ `
      query VerificationFlow($id: ID!) {
        verificationFlow(id: $id) {
          ...VerificationFlowFields
        }
      }
      ${VERIFICATION_FLOW}
    `,
    variables: ({ params }) => ({ id: params.id }),
    notFound: 'Verification flow',
  },
];
