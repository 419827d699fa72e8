import { Directive, Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { IDENTITY_STATUSES } from './identity.lifecycle.js';
import { IDENTITY_TIERS } from './identity.entity.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const IdentityTierEnum = enumOf(IDENTITY_TIERS);
export const IdentityStatusEnum = enumOf(IDENTITY_STATUSES);
export const ReviewDecisionEnum = enumOf(['VERIFIED', 'REJECTED'] as const);
registerEnumType(IdentityTierEnum, {
  name: 'IdentityTier',
  description: 'BASIC = document; STANDARD = + liveness; ENHANCED = + sanctions screening',
});
registerEnumType(IdentityStatusEnum, { name: 'IdentityStatus' });
registerEnumType(ReviewDecisionEnum, { name: 'ReviewDecision' });

@ObjectType('IdentityVerification')
@Directive('@key(fields: "id")')
export class IdentityVerificationType {
  @Field(() => ID) id!: string;
  @Field() userId!: string;
  @Field(() => IdentityTierEnum) tier!: string;
  @Field(() => IdentityStatusEnum) overallStatus!: string;
  @Field(() => Float, { nullable: true }) faceMatchScore?: number | null;
  @Field(() => Date, { nullable: true }) verifiedAt?: Date | null;
  @Field(() => String, { nullable: true }) reviewedBy?: string | null;
  @Field(() => String, { nullable: true }) reviewNotes?: string | null;
  @Field(() => Date, { nullable: true }) reviewedAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Set when a restart replaced this verification' }) invalidatedAt?: Date | null;
  @Field(() => ID, { nullable: true }) replacedById?: string | null;
  @Field(() => ID, { nullable: true }) restartedFromId?: string | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('IdentityVerificationPage')
export class IdentityVerificationPage {
  @Field(() => [IdentityVerificationType]) data!: IdentityVerificationType[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
}

@ObjectType('CreateIdentityVerificationPayload')
export class CreateIdentityVerificationPayload {
  @Field({ description: 'false when the user already had an active (PENDING or IN_PROGRESS) verification, which is returned' })
  created!: boolean;
  @Field(() => IdentityVerificationType) verification!: IdentityVerificationType;
}
