import { Field, ID, InputType } from 'type-graphql';
import { ReviewerFields } from '../review/review.inputs.js';
import { CognitiveKycDecisionEnum, CognitiveKycReviewDecisionEnum } from './cognitive-kyc.type.js';
import type { CognitiveKycStatus } from './cognitive-kyc.lifecycle.js';

@InputType({ description: 'A selfie and an identity document to compare and check, as base64 images (JSON bodies up to 28 MB)' })
export class CreateCognitiveKycCheckInput {
  @Field({ description: 'Your identifier of the user (any text up to 255 characters)' })
  userId!: string;

  @Field({ description: 'The selfie, base64 (a data: URL prefix is allowed): JPEG, PNG, WebP or HEIC, at most 10 MB, exactly one face' })
  selfieBase64!: string;

  @Field({ description: 'The document (a passport’s data page or a card’s front), base64: JPEG, PNG, WebP or HEIC, at most 10 MB' })
  documentBase64!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'The selfie’s declared type (image/jpeg, image/png, image/webp, image/heic, image/heif; default image/jpeg); the bytes decide',
  })
  selfieMimeType?: string | null;

  @Field(() => String, { nullable: true, description: 'The document’s declared type, as selfieMimeType' })
  documentMimeType?: string | null;
}

@InputType({ description: 'A reviewer’s decision on an AI identity check in MANUAL_REVIEW' })
export class ReviewCognitiveKycCheckInput extends ReviewerFields {
  @Field(() => ID, { description: 'The check to decide' })
  id!: string;

  @Field(() => CognitiveKycReviewDecisionEnum, { description: 'The decision' })
  decision!: 'APPROVED' | 'REJECTED';
}

@InputType({ description: 'Which AI identity checks to list (all of the organization when empty)' })
export class CognitiveKycCheckFilter {
  @Field(() => String, { nullable: true, description: 'Only this user’s' })
  userId?: string | null;

  @Field(() => CognitiveKycDecisionEnum, { nullable: true, description: 'Only with this decision (MANUAL_REVIEW: the review queue)' })
  decision?: CognitiveKycStatus | null;
}
