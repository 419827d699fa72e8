import { Field, Float, ID, InputType } from 'type-graphql';
import { ReviewDecisionFields } from '../review/review.inputs.js';
import type { BusinessType, ControlType } from './business.entity.js';
import type { BusinessStatus } from './business.lifecycle.js';
import { BusinessStatusEnum, BusinessTypeEnum, ControlTypeEnum } from './business.type.js';

@InputType({ description: 'A business to verify' })
export class CreateBusinessVerificationInput {
  @Field({ description: 'Your identifier of the user declaring the business (any text up to 255 characters)' })
  userId!: string;

  @Field({ description: 'The business name as registered' })
  businessName!: string;

  @Field({ description: 'The registration number in the country’s company registry' })
  registrationNumber!: string;

  @Field({ description: 'The country of registration, uppercase ISO 3166-1 alpha-2' })
  country!: string;

  @Field(() => BusinessTypeEnum, { nullable: true, description: 'The legal form' })
  businessType?: BusinessType | null;

  @Field(() => String, { nullable: true, description: 'The tax identifier (Form A)' })
  taxId?: string | null;
}

@InputType({ description: 'A director of the business' })
export class BusinessDirectorInput {
  @Field({ description: 'Full name' })
  fullName!: string;

  @Field({ description: 'Role in the business (managing director, chair…; Form B calls it position)' })
  role!: string;

  @Field(() => String, { nullable: true, description: 'Date of birth, YYYY-MM-DD' })
  dateOfBirth?: string | null;

  @Field(() => String, { nullable: true, description: 'Nationality, uppercase ISO 3166-1 alpha-2' })
  nationality?: string | null;

  @Field(() => String, { nullable: true, description: 'Identity document number' })
  idNumber?: string | null;
}

@InputType({ description: 'An ultimate beneficial owner of the business' })
export class BusinessUboInput {
  @Field({ description: 'Full name' })
  fullName!: string;

  @Field(() => Float, { description: 'Share of ownership, 0 to 100; the owners of one business add up to 100 at most' })
  ownershipPercentage!: number;

  @Field(() => ControlTypeEnum, { nullable: true, description: 'How they control the business' })
  controlType?: ControlType | null;

  @Field(() => String, { nullable: true, description: 'Date of birth, YYYY-MM-DD' })
  dateOfBirth?: string | null;

  @Field(() => String, { nullable: true, description: 'Nationality, uppercase ISO 3166-1 alpha-2' })
  nationality?: string | null;
}

@InputType({ description: 'Directors to declare for a business (each is screened against the sanctions and PEP lists)' })
export class AddBusinessDirectorsInput {
  @Field(() => ID, { description: 'The business verification' })
  id!: string;

  @Field(() => [BusinessDirectorInput], { description: 'One to 50 directors (100 per business at most)' })
  directors!: BusinessDirectorInput[];
}

@InputType({ description: 'Ultimate beneficial owners to declare for a business (each is screened against the sanctions and PEP lists)' })
export class AddBusinessUbosInput {
  @Field(() => ID, { description: 'The business verification' })
  id!: string;

  @Field(() => [BusinessUboInput], { description: 'One to 50 owners (100 per business at most)' })
  ubos!: BusinessUboInput[];
}

@InputType({ description: 'A reviewer’s decision on a business verification in MANUAL_REVIEW' })
export class ReviewBusinessVerificationInput extends ReviewDecisionFields {
  @Field(() => ID, { description: 'The business verification to decide' })
  id!: string;
}

@InputType({ description: 'Which business verifications to list (all of the organization when empty)' })
export class BusinessVerificationFilter {
  @Field(() => String, { nullable: true, description: 'Only this user’s' })
  userId?: string | null;

  @Field(() => BusinessStatusEnum, { nullable: true, description: 'Only in this status (MANUAL_REVIEW: the review queue)' })
  status?: BusinessStatus | null;
}
