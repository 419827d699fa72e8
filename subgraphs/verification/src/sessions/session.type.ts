import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { SESSION_SCOPES } from '../../../../platform/auth/session-token.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';

/** `identity:read` ↔ IDENTITY_READ, `document:submit` ↔ DOCUMENT_SUBMIT. */
export const scopeName = (scope: string) => scope.toUpperCase().replace(':', '_');
export const scopeOf = (name: string) => SESSION_SCOPES.find((scope) => scopeName(scope) === name) ?? name;

const SessionScopeEnum = Object.fromEntries(SESSION_SCOPES.map((scope) => [scopeName(scope), scopeName(scope)]));
registerEnumType(SessionScopeEnum, {
  name: 'SessionScope',
  description:
    'What a session token may do: read, or submit checks (and read and follow what it submits), always only for its own user (never review, decide or delete)',
  valuesConfig: {
    IDENTITY_READ: { description: 'The user’s identity verifications (and their live updates)' },
    SCREENING_READ: { description: 'The user’s AML screenings' },
    MONITORING_READ: { description: 'The user’s watchlist subscription and alerts' },
    INTELLIGENCE_READ: { description: 'The user’s device and IP assessments' },
    FLOW_READ: { description: 'The user’s hosted verification flows and where their steps stand (a flow’s page holds it)' },
    DOCUMENT_SUBMIT: {
      description:
        'Submit a document for the user (createDocumentVerification, assessDocumentImage) and follow it; not review it or delete its images',
    },
    LIVENESS_SUBMIT: {
      description:
        'Start a liveness session for the user and send its photos (createLivenessSession, submitLivenessReferenceSelfie, submitLivenessChallenge)',
    },
    PHONE_SUBMIT: {
      description: 'Start, resend and verify the user’s phone code (startPhoneVerification, resendPhoneCode, verifyPhoneCode)',
    },
    EMAIL_SUBMIT: {
      description: 'Start, resend and verify the user’s email code (startEmailVerification, resendEmailCode, verifyEmailCode)',
    },
    ADDRESS_SUBMIT: { description: 'Submit a proof of address for the user, as an upload (createAddressVerification); not review it' },
  },
});

@InputType({ description: 'A session token for one user, to use from a browser or an app instead of an API key' })
export class CreateSessionTokenInput {
  @Field({ description: 'Your identifier of the user whose records the token may read and submit' })
  userId!: string;

  @Field(() => [SessionScopeEnum], {
    description: 'What it may do; each must be held by the key that creates it (a …_SUBMIT scope: the area’s write permission)',
  })
  scopes!: string[];

  @Field(() => Int, { nullable: true, description: 'How long it lives, 60 to 86,400 seconds (default 900)' })
  ttlSeconds?: number | null;
}

@ObjectType('SessionToken', { description: 'A short-lived credential limited to one user’s records and some scopes' })
export class SessionTokenType {
  @Field({ description: 'Send it as `Authorization: Bearer <token>` over HTTP, or as `authorization` in graphql-ws connectionParams' })
  token!: string;

  @Field({ description: 'The user whose records it reads and submits' })
  userId!: string;

  @Field(() => [SessionScopeEnum], { description: 'What it may do' })
  scopes!: string[];

  @Field({ description: 'When it stops working (open subscriptions are closed then)' })
  expiresAt!: Date;
}

@ObjectType('CreateSessionTokenPayload', { description: 'The result of createSessionToken' })
export class CreateSessionTokenPayload {
  @Field(() => SessionTokenType, { nullable: true, description: 'The new token (shown only here)' })
  sessionToken?: SessionTokenType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}
