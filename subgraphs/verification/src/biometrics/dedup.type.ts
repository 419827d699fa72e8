import { Field, Float, ID, ObjectType, registerEnumType } from 'type-graphql';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { DEDUP_STATUSES } from './dedup.lifecycle.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const BiometricDedupStatusEnum = enumOf(DEDUP_STATUSES);
registerEnumType(BiometricDedupStatusEnum, {
  name: 'BiometricDedupStatus',
  description: 'The outcome of a biometric deduplication check',
  valuesConfig: {
    PROCESSING: { description: 'Being checked (a check completes within its request, so none is returned in this status)' },
    UNIQUE: { description: 'No other user’s enrolled face matched' },
    DUPLICATE: { description: 'Another user’s enrolled face matched at or above the threshold' },
    ERROR: { description: 'The selfie could not be compared: no face, or more than one, in the image' },
  },
});

@ObjectType('BiometricDedupMatch', { description: 'Another user’s enrolled face that matched the selfie' })
export class BiometricDedupMatchType {
  @Field({ description: 'Your identifier of the user whose face matched' })
  matchedUserId!: string;

  @Field(() => Float, { description: 'How alike the two faces are, 0 to 1 (the same calibrated scale as the threshold)' })
  similarity!: number;

  @Field({ description: 'When the matched face was enrolled' })
  enrolledAt!: Date;
}

@ObjectType('BiometricDedupCheck', {
  description: 'A check of whether a selfie’s face is already enrolled for another user (only the outcome is kept, never the image)',
})
export class BiometricDedupCheckType {
  @Field(() => ID, { description: 'Identifier of the check' })
  id!: string;

  @Field({ description: 'Your identifier of the user whose selfie was checked' })
  userId!: string;

  @Field(() => BiometricDedupStatusEnum, { description: 'The outcome' })
  status!: string;

  @Field({ description: 'Whether another user’s enrolled face matched' })
  matchFound!: boolean;

  @Field({ description: 'Whether the user’s face is enrolled after the check (only when unique and enrolment was asked for)' })
  enrolled!: boolean;

  @Field(() => Float, { description: 'The similarity from which an enrolled face counted as a match, 0 to 1' })
  threshold!: number;

  @Field(() => [BiometricDedupMatchType], {
    nullable: true,
    description: 'The matching enrolled faces, most similar first (at most 10); present when DUPLICATE',
  })
  matches?: BiometricDedupMatchType[] | null;

  @Field(() => String, { nullable: true, description: 'Why the check is ERROR' })
  errorReason?: string | null;

  @Field({ description: 'When the check was made' })
  checkedAt!: Date;

  @Field({ description: 'When the check was recorded' })
  createdAt!: Date;
}

export const BiometricDedupCheckConnection = ConnectionType('BiometricDedupCheck', BiometricDedupCheckType, 'biometric dedup check');

@ObjectType('BiometricEnrollment', {
  description: 'A user’s enrolled face: new selfies of other users are compared with it. Only a vector is kept, never the image',
})
export class BiometricEnrollmentType {
  @Field({ description: 'Your identifier of the user' })
  userId!: string;

  @Field({ description: 'When the face was enrolled' })
  enrolledAt!: Date;

  /** Loaded by a field resolver (dedup.resolver.ts). */
  sourceCheckId!: string;
}

export const DEDUP_EVENT_DESCRIPTIONS: Record<string, string> = {
  'dedup.unique': 'The face matched no other user’s',
  'dedup.match': 'The face matched another user’s',
  'dedup.error': 'The selfie could not be compared',
};
export const BiometricDedupCheckEvent = EventEnvelopeType(
  'BiometricDedupCheck',
  BiometricDedupCheckType,
  DEDUP_EVENT_DESCRIPTIONS,
  'biometric dedup check',
);

@ObjectType('CheckBiometricDuplicatePayload', { description: 'The result of checkBiometricDuplicate' })
export class CheckBiometricDuplicatePayload {
  @Field(() => BiometricDedupCheckType, { nullable: true, description: 'The check and its outcome' })
  biometricDedupCheck?: BiometricDedupCheckType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('DeleteBiometricEnrollmentPayload', { description: 'The result of deleteBiometricEnrollment' })
export class DeleteBiometricEnrollmentPayload {
  @Field(() => BiometricEnrollmentType, { nullable: true, description: 'The enrolment that was erased' })
  biometricEnrollment?: BiometricEnrollmentType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input, or a user with no enrolled face; empty on success' })
  userErrors!: UserError[];
}
