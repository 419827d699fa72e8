import { Field, InputType } from 'type-graphql';
import { IsNotEmpty, MaxLength } from 'class-validator';
import { IdentityTierEnum, ReviewDecisionEnum } from './identity.type.js';
import type { IdentityTier } from './identity.entity.js';

@InputType()
export class CreateIdentityVerificationInput {
  @Field()
  @IsNotEmpty({ message: 'userId must not be empty' })
  @MaxLength(255)
  userId!: string;

  @Field(() => IdentityTierEnum, { nullable: true, description: 'Default BASIC' })
  tier?: IdentityTier | null;
}

@InputType()
export class ReviewIdentityVerificationInput {
  @Field(() => ReviewDecisionEnum)
  decision!: 'VERIFIED' | 'REJECTED';

  @Field()
  @IsNotEmpty({ message: 'reviewedBy must not be empty' })
  @MaxLength(255)
  reviewedBy!: string;

  @Field()
  @IsNotEmpty({ message: 'reviewNotes must not be empty' })
  @MaxLength(5000)
  reviewNotes!: string;
}
