import { Field, ID, InputType } from 'type-graphql';
import { IsNotEmpty, MaxLength } from 'class-validator';
import { IdentityStatusEnum, IdentityTierEnum } from './identity.type.js';
import { ReviewDecisionFields } from '../review/review.inputs.js';
import type { IdentityStatus } from './identity.lifecycle.js';
import type { IdentityTier } from './identity.entity.js';

@InputType({ description: 'Start an identity verification for a user' })
export class CreateIdentityVerificationInput {
  @Field({ description: 'Your identifier of the user (any text up to 255 characters)' })
  @IsNotEmpty({ message: 'userId must not be empty' })
  @MaxLength(255)
  userId!: string;

  @Field(() => IdentityTierEnum, { nullable: true, description: 'What to check; default BASIC' })
  tier?: IdentityTier | null;
}

@InputType({ description: 'A reviewer’s decision on a verification in MANUAL_REVIEW or PENDING' })
export class ReviewIdentityVerificationInput extends ReviewDecisionFields {
  @Field(() => ID, { description: 'The verification to decide' })
  id!: string;
}

@InputType({ description: 'Replace a verification by a new PENDING one (the user starts again)' })
export class RestartIdentityVerificationInput {
  @Field(() => ID, { description: 'The verification to replace' })
  id!: string;
}

@InputType({ description: 'Which verifications to list (all of the organization when empty)' })
export class IdentityVerificationFilter {
  @Field(() => String, { nullable: true, description: 'Only this user’s' })
  userId?: string | null;

  @Field(() => IdentityStatusEnum, { nullable: true, description: 'Only in this status (MANUAL_REVIEW: the review queue)' })
  status?: IdentityStatus | null;
}
