import { Field, ID, InputType } from 'type-graphql';

/**
 * An account's profile. Validated by the account store (account.store.ts), so that every problem
 * of the input is reported at once.
 */
@InputType({ description: 'The profile of an account: who holds it, and the name to screen for it' })
export class SetRiskAccountProfileInput {
  @Field(() => ID, { description: 'The account, as your transactions name it (1–128 characters)' })
  accountId!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Your identifier of the user holding the account (up to 255 characters); absent keeps the one it has, null unlinks it',
  })
  userId?: string | null;

  @Field({ description: 'Full name of the holder (1–200 characters)' })
  fullName!: string;

  @Field(() => String, { nullable: true, description: 'Date of birth as precise as known: YYYY, YYYY-MM or YYYY-MM-DD' })
  dateOfBirth?: string | null;

  @Field(() => String, { nullable: true, description: 'Nationality, ISO 3166-1 alpha-2 in upper case (e.g. KE)' })
  nationality?: string | null;
}
