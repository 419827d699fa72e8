import { Field, InputType, registerEnumType } from 'type-graphql';
import { IsNotEmpty, MaxLength } from 'class-validator';

export const ReviewDecisionEnum = { VERIFIED: 'VERIFIED', REJECTED: 'REJECTED' } as const;
registerEnumType(ReviewDecisionEnum, {
  name: 'ReviewDecision',
  description: 'A reviewer’s decision',
  valuesConfig: { VERIFIED: { description: 'Accept the identity' }, REJECTED: { description: 'Reject the identity' } },
});

/** Who reviewed and why: the fields every review input shares (each adds its decision and the id it decides). */
@InputType()
export abstract class ReviewerFields {
  @Field({ description: 'Who decides (name or e-mail of the reviewer)' })
  @IsNotEmpty({ message: 'reviewedBy must not be empty' })
  @MaxLength(255)
  reviewedBy!: string;

  @Field({ description: 'Why: kept with the decision' })
  @IsNotEmpty({ message: 'reviewNotes must not be empty' })
  @MaxLength(5000)
  reviewNotes!: string;
}

/** A reviewer's VERIFIED / REJECTED decision (identity, documents, addresses, businesses). */
@InputType()
export abstract class ReviewDecisionFields extends ReviewerFields {
  @Field(() => ReviewDecisionEnum, { description: 'The decision' })
  decision!: 'VERIFIED' | 'REJECTED';
}
