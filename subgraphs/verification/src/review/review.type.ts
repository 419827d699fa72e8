import { Field, ObjectType } from 'type-graphql';

/** The reviewer's fields of a record a person may decide. */
@ObjectType()
export abstract class ReviewedFields {
  @Field(() => String, { nullable: true, description: 'Who decided it in a manual review' })
  reviewedBy?: string | null;

  @Field(() => String, { nullable: true, description: 'The reviewer’s notes' })
  reviewNotes?: string | null;

  @Field(() => Date, { nullable: true, description: 'When the review decision was made' })
  reviewedAt?: Date | null;
}
