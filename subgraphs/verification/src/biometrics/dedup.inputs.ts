import { Field, Float, InputType } from 'type-graphql';
import { IsNotEmpty, MaxLength } from 'class-validator';
import { BiometricDedupStatusEnum } from './dedup.type.js';
import type { DedupStatus } from './dedup.lifecycle.js';

@InputType({ description: 'A selfie to compare with every other user’s enrolled face' })
export class CheckBiometricDuplicateInput {
  @Field({ description: 'Your identifier of the user (any text up to 255 characters)' })
  @IsNotEmpty({ message: 'userId must not be empty' })
  @MaxLength(255)
  userId!: string;

  @Field({ description: 'The selfie, base64 (a data: prefix is allowed): JPEG or PNG (WebP and HEIC too), one face, at most 10 MB' })
  selfieBase64!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Its declared type: image/jpeg (default), image/png, image/webp or image/heic; the bytes decide what it really is',
  })
  selfieMimeType?: string | null;

  @Field(() => Float, { nullable: true, description: 'The similarity from which an enrolled face is a match, 0 to 1; default 0.90' })
  threshold?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'Enrol the face when no match is found; default true' })
  enroll?: boolean | null;
}

@InputType({ description: 'Whose enrolled face to erase' })
export class DeleteBiometricEnrollmentInput {
  @Field({ description: 'Your identifier of the user' })
  @IsNotEmpty({ message: 'userId must not be empty' })
  @MaxLength(255)
  userId!: string;
}

@InputType({ description: 'Which dedup checks to list (all of the organization when empty)' })
export class BiometricDedupCheckFilter {
  @Field(() => String, { nullable: true, description: 'Only this user’s' })
  userId?: string | null;

  @Field(() => BiometricDedupStatusEnum, { nullable: true, description: 'Only with this outcome (DUPLICATE: the ones to look into)' })
  status?: DedupStatus | null;
}
