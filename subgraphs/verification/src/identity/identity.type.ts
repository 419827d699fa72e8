import { Directive, Field, Float, ID, ObjectType, registerEnumType } from 'type-graphql';
import { ReviewedFields } from '../review/review.type.js';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { IDENTITY_STATUSES } from './identity.lifecycle.js';
import { STEP_STATUSES } from './identity-progress.js';
import { IDENTITY_TIERS } from './identity.entity.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const IdentityTierEnum = enumOf(IDENTITY_TIERS);
export const IdentityStatusEnum = enumOf(IDENTITY_STATUSES);
export const IdentityStepStatusEnum = enumOf(STEP_STATUSES);

registerEnumType(IdentityStepStatusEnum, {
  name: 'IdentityStepStatus',
  description: 'Where one step of an identity verification stands',
  valuesConfig: {
    NOT_REQUIRED: { description: 'Not part of this tier' },
    AWAITING: { description: 'Waiting for the user’s submission (or for the steps before it)' },
    PROCESSING: { description: 'Submitted; being checked' },
    PASSED: { description: 'Passed' },
    FAILED: { description: 'Failed: the verification is rejected' },
    MANUAL_REVIEW: { description: 'Unsure: a reviewer decides' },
  },
});

@ObjectType('IdentitySteps', { description: 'Per-step progress of an identity verification (which steps its tier needs)' })
export class IdentityStepsType {
  @Field(() => IdentityStepStatusEnum, { description: 'The document verification' })
  document!: string;

  @Field(() => IdentityStepStatusEnum, { description: 'The liveness session (STANDARD, ENHANCED)' })
  liveness!: string;

  @Field(() => IdentityStepStatusEnum, { description: 'The document portrait against the liveness reference selfie (STANDARD, ENHANCED)' })
  faceMatch!: string;

  @Field(() => IdentityStepStatusEnum, { description: 'AML screening of the name and date of birth on the document (ENHANCED)' })
  aml!: string;
}
registerEnumType(IdentityTierEnum, {
  name: 'IdentityTier',
  description: 'How much an identity verification checks',
  valuesConfig: {
    BASIC: { description: 'An identity document' },
    STANDARD: { description: 'An identity document and a liveness check' },
    ENHANCED: { description: 'An identity document, a liveness check and sanctions screening' },
  },
});
registerEnumType(IdentityStatusEnum, {
  name: 'IdentityStatus',
  description: 'Where an identity verification stands',
  valuesConfig: {
    PENDING: { description: 'Started; waiting for the user’s document and selfie' },
    IN_PROGRESS: { description: 'The user submitted; checks are running' },
    MANUAL_REVIEW: { description: 'The checks need a reviewer’s decision' },
    VERIFIED: { description: 'The identity is verified' },
    REJECTED: { description: 'The identity was rejected' },
  },
});

@ObjectType('IdentityVerification', { description: 'One verification of a user’s identity, from start to decision' })
@Directive('@key(fields: "id")')
export class IdentityVerificationType extends ReviewedFields {
  @Field(() => ID, { description: 'Identifier of the verification' })
  id!: string;

  @Field({ description: 'Your identifier of the user it verifies' })
  userId!: string;

  @Field(() => IdentityTierEnum, { description: 'What it checks' })
  tier!: string;

  @Field(() => IdentityStatusEnum, { description: 'Where it stands' })
  overallStatus!: string;

  @Field(() => Float, { nullable: true, description: 'Similarity of the selfie to the document photo, 0 to 1, once compared' })
  faceMatchScore?: number | null;

  @Field(() => Date, { nullable: true, description: 'When it became VERIFIED' })
  verifiedAt?: Date | null;

  @Field(() => IdentityStepsType, { nullable: true, description: 'Per-step progress; null until the user submits something' })
  steps?: IdentityStepsType | null;

  @Field(() => [String], {
    description:
      'Why it was rejected or needs a reviewer: DOCUMENT_REJECTED, DOCUMENT_NEEDS_REVIEW, LIVENESS_FAILED, LIVENESS_EXPIRED, FACE_MISMATCH, FACE_MATCH_UNCERTAIN, NO_FACE_TO_COMPARE, AML_POTENTIAL_MATCH, AML_CONFIRMED_MATCH, AML_LISTS_NOT_LOADED',
  })
  reasons!: string[];

  /** Loaded by field resolvers (identity.resolver.ts). */
  documentVerificationId?: string | null;
  livenessSessionId?: string | null;
  amlScreeningId?: string | null;

  @Field(() => Date, { nullable: true, description: 'When a restart replaced it (it no longer counts)' })
  invalidatedAt?: Date | null;

  /** Loaded by a field resolver (identity.resolver.ts). */
  replacedById?: string | null;
  restartedFromId?: string | null;

  @Field({ description: 'When it was started' })
  createdAt!: Date;

  @Field({ description: 'When it last changed' })
  updatedAt!: Date;
}

export const IdentityVerificationConnection = ConnectionType('IdentityVerification', IdentityVerificationType, 'identity verification');

export const IDENTITY_EVENT_DESCRIPTIONS: Record<string, string> = {
  'identity.created': 'A verification was started',
  'identity.in_progress': 'The user submitted; checks are running',
  'identity.progress': 'A step moved (see steps); the status stays',
  'identity.manual_review': 'The checks need a reviewer',
  'identity.verified': 'The identity was verified',
  'identity.rejected': 'The identity was rejected',
  'identity.restarted': 'The verification was replaced by a new one',
};
export const IdentityVerificationEvent = EventEnvelopeType(
  'IdentityVerification',
  IdentityVerificationType,
  IDENTITY_EVENT_DESCRIPTIONS,
  'identity verification',
);

@ObjectType('CreateIdentityVerificationPayload', { description: 'The result of createIdentityVerification' })
export class CreateIdentityVerificationPayload {
  @Field(() => IdentityVerificationType, { nullable: true, description: 'The new verification, or the user’s active one' })
  identityVerification?: IdentityVerificationType | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'false when the user already had an active (PENDING or IN_PROGRESS) verification, which is returned',
  })
  created?: boolean | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('ReviewIdentityVerificationPayload', { description: 'The result of reviewIdentityVerification' })
export class ReviewIdentityVerificationPayload {
  @Field(() => IdentityVerificationType, { nullable: true, description: 'The verification with its decision' })
  identityVerification?: IdentityVerificationType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input or a verification that cannot be reviewed; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('RestartIdentityVerificationPayload', { description: 'The result of restartIdentityVerification' })
export class RestartIdentityVerificationPayload {
  @Field(() => IdentityVerificationType, { nullable: true, description: 'The new PENDING verification that replaces the restarted one' })
  identityVerification?: IdentityVerificationType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input or a verification restarted before; empty on success' })
  userErrors!: UserError[];
}
