import { badInput } from '../../../../platform/errors.js';
import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import type { OperationData, Route } from '../../../../platform/rest/route.js';

/** Ordered as the spec's phone record (then what the spec leaves open). */
const PHONE_VERIFICATION = /* GraphQL */ `
  fragment PhoneVerificationFields on PhoneVerification {
    id
    userId
    phoneNumber
    channel
    status
    expiresAt
    createdAt
    attemptsRemaining
    verifiedAt
    locale
    country
    lineType
    sends
    failureReason
    updatedAt
  }
`;

/** Ordered as the spec's email record (then what the spec leaves open). */
const EMAIL_VERIFICATION = /* GraphQL */ `
  fragment EmailVerificationFields on EmailVerification {
    id
    userId
    email
    status
    expiresAt
    createdAt
    verifiedAt
    method
    redirectUrl
    disposable
    attemptsRemaining
    sends
    failureReason
    updatedAt
  }
`;

/**
 * Phone and email verification by one-time code. Form A (`/verifications/phone/{id}/verify`,
 * channel SMS|VOICE, `locale`; email `method` and `redirectUrl`) and Form B
 * (`/verifications/phone/verify` with `verificationId`, channel sms|whatsapp) share the create and
 * lookup routes: their enum spellings are both accepted there, and a lower-case channel is
 * answered lower-case.
 */

type Kind = 'phone' | 'email';
const NAMES = {
  phone: { type: 'PhoneVerification', record: 'phoneVerification', fragment: PHONE_VERIFICATION, what: 'Phone verification' },
  email: { type: 'EmailVerification', record: 'emailVerification', fragment: EMAIL_VERIFICATION, what: 'Email verification' },
} as const;

/** Form A's channels as GraphQL spells them, and Form B's lower-case ones. */
const PHONE_CHANNELS: Record<string, string> = { SMS: 'SMS', VOICE: 'VOICE', sms: 'SMS', whatsapp: 'WHATSAPP' };
const EMAIL_METHODS = ['OTP', 'MAGIC_LINK'];

function phoneChannel(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && Object.hasOwn(PHONE_CHANNELS, value)) return PHONE_CHANNELS[value];
  throw badInput('channel must be one of: SMS, VOICE (or sms, whatsapp)');
}

function emailMethod(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && EMAIL_METHODS.includes(value)) return value;
  throw badInput(`method must be one of: ${EMAIL_METHODS.join(', ')}`);
}

/** A payload mutation over one verification, selecting its record and the user errors. */
function mutation(kind: Kind, name: string, inputType: string): string {
  const { record, fragment } = NAMES[kind];
  const field = name[0].toLowerCase() + name.slice(1);
  return /* GraphQL */ `
    mutation ${name}($input: ${inputType}!) {
      ${field}(input: $input) {
        ${record} {
          ...${NAMES[kind].type}Fields
        }
        userErrors {
          ...UserErrorFields
        }
      }
    }
    ${fragment}
    ${USER_ERRORS}
  `;
}

const recordOf = (kind: Kind, data: OperationData, field: string): OperationData => data[field][NAMES[kind].record];

/** Form B's verify answer: the id, status, address and verifiedAt. */
function formBVerified(kind: Kind, v: OperationData) {
  return kind === 'phone'
    ? { id: v.id, status: v.status, phoneNumber: v.phoneNumber, verifiedAt: v.verifiedAt }
    : { id: v.id, status: v.status, email: v.email, verifiedAt: v.verifiedAt };
}

function verifyRoutes(kind: Kind): Route[] {
  const name = `Verify${kind === 'phone' ? 'Phone' : 'Email'}Code`;
  const field = name[0].toLowerCase() + name.slice(1);
  const operation = mutation(kind, name, `${name}Input`);
  return [
    // registered before `/:id` routes: `verify` is not an id
    {
      method: 'POST',
      path: `/verifications/${kind}/verify`,
      summary: `Submit the code (Form B): answers id, status, ${kind === 'phone' ? 'phoneNumber' : 'email'} and verifiedAt`,
      body: [
        { name: 'verificationId', type: 'string', required: true },
        { name: 'code', type: 'string', required: true, description: 'The 6-digit code' },
      ],
      example: { verificationId: '7d3c2a4e-8a55-4d8b-9d0b-3a1f2c4b5d6e', code: '123456' },
      operation,
      variables: ({ body }) => ({ input: { id: body.verificationId, code: body.code } }),
      result: (data) => formBVerified(kind, recordOf(kind, data, field)),
    },
    {
      method: 'POST',
      path: `/verifications/${kind}/:id/verify`,
      summary: 'Submit the code (Form A): a wrong one spends an attempt; the last wrong one fails the verification',
      body: [{ name: 'code', type: 'string', required: true, description: 'The 6-digit code' }],
      example: { code: '123456' },
      operation,
      variables: ({ params, body }) => ({ input: { id: params.id, code: body.code } }),
      result: (data) => recordOf(kind, data, field),
    },
  ];
}

function commonRoutes(kind: Kind): Route[] {
  const { type, fragment, what } = NAMES[kind];
  const resend = `Resend${kind === 'phone' ? 'Phone' : 'Email'}Code`;
  const resendField = resend[0].toLowerCase() + resend.slice(1);
  return [
    {
      method: 'POST',
      path: `/verifications/${kind}/:id/resend`,
      summary: 'Send a new code (the previous one stops working), after a 30-second cool-down',
      operation: mutation(kind, resend, `${resend}Input`),
      variables: ({ params }) => ({ input: { id: params.id } }),
      result: (data) => recordOf(kind, data, resendField),
    },
    {
      method: 'GET',
      path: `/verifications/${kind}/:id`,
      summary: `Get a ${kind} verification`,
      operation: /* GraphQL */ `
        query ${type}($id: ID!) {
          ${NAMES[kind].record}(id: $id) {
            ...${type}Fields
          }
        }
        ${fragment}
      `,
      variables: ({ params }) => ({ id: params.id }),
      notFound: what,
    },
  ];
}

export const phoneRoutes: Route[] = [
  {
    method: 'POST',
    path: '/verifications/phone',
    summary: 'Send a 6-digit code to a phone number (valid 10 minutes, 3 attempts)',
    body: [
      { name: 'phoneNumber', type: 'string', required: true, description: 'E.164, e.g. +254712345678' },
      { name: 'userId', type: 'string', required: true },
      {
        name: 'channel',
        type: { enum: ['SMS', 'VOICE', 'sms', 'whatsapp'] },
        description: 'Form A: SMS or VOICE; Form B: sms or whatsapp; default SMS. VOICE and whatsapp answer 422 while not configured',
      },
      { name: 'locale', type: 'string', description: 'Form A: language of the message, default en' },
    ],
    example: { phoneNumber: '+254712345678', userId: 'user_1001', channel: 'SMS', locale: 'en' },
    operation: mutation('phone', 'StartPhoneVerification', 'StartPhoneVerificationInput'),
    variables: ({ body }) => ({ input: { ...body, channel: phoneChannel(body.channel) } }),
    result: (data, { body }) => {
      const v = recordOf('phone', data, 'startPhoneVerification');
      // Form B spells its channel in lower case: answered as it asked
      return typeof body.channel === 'string' && body.channel === body.channel.toLowerCase()
        ? { ...v, channel: v.channel.toLowerCase() }
        : v;
    },
    response: { anyCase: ['channel'] },
    status: 201,
  },
  ...verifyRoutes('phone'),
  ...commonRoutes('phone'),
];

export const emailRoutes: Route[] = [
  {
    method: 'POST',
    path: '/verifications/email',
    summary: 'Send a 6-digit code (or a magic link) to an email address (valid 15 minutes, 3 attempts)',
    body: [
      { name: 'email', type: 'string', required: true },
      { name: 'userId', type: 'string', required: true },
      { name: 'method', type: { enum: EMAIL_METHODS }, description: 'Form A: OTP or MAGIC_LINK, default OTP' },
      { name: 'redirectUrl', type: 'string', description: 'Form A: where an opened magic link sends the browser (http or https URL)' },
    ],
    example: { email: 'amina@example.com', userId: 'user_1001', method: 'OTP' },
    operation: mutation('email', 'StartEmailVerification', 'StartEmailVerificationInput'),
    variables: ({ body }) => ({ input: { ...body, method: emailMethod(body.method) } }),
    result: (data) => recordOf('email', data, 'startEmailVerification'),
    status: 201,
  },
  ...verifyRoutes('email'),
  ...commonRoutes('email'),
];
