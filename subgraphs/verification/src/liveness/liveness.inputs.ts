import { Field, ID, InputType } from 'type-graphql';
import { IsNotEmpty, MaxLength } from 'class-validator';
import { Upload, type FileUpload } from '../../../../platform/graphql/upload.js';
import { LivenessStatusEnum } from './liveness.type.js';
import type { LivenessStatus } from './liveness.lifecycle.js';

@InputType({ description: 'Start a liveness session for a user' })
export class CreateLivenessSessionInput {
  @Field({ description: 'Your identifier of the user (any text up to 255 characters)' })
  @IsNotEmpty({ message: 'userId must not be empty' })
  @MaxLength(255)
  userId!: string;
}

@InputType({
  description: 'One photo of a challenge; a NOD takes two, sent one after the other with the same challengeId (chin down, then chin up)',
})
export class SubmitLivenessChallengeInput {
  @Field({ description: 'The session’s token (from createLivenessSession)' })
  sessionToken!: string;

  @Field(() => ID, { description: 'The challenge the photo performs' })
  challengeId!: string;

  @Field(() => Upload, {
    description: 'The photo as the camera took it, not mirrored: JPEG, PNG, WebP or HEIC, at most 10 MB, one face',
  })
  photo!: Promise<FileUpload>;
}

@InputType({ description: 'The reference selfie the challenge photos are matched against' })
export class SubmitLivenessReferenceSelfieInput {
  @Field({ description: 'The session’s token (from createLivenessSession)' })
  sessionToken!: string;

  @Field(() => Upload, { description: 'A clear photo of the user alone, facing the camera: JPEG, PNG, WebP or HEIC, at most 10 MB' })
  selfie!: Promise<FileUpload>;
}

@InputType({ description: 'Which liveness sessions to list (all of the organization when empty)' })
export class LivenessSessionFilter {
  @Field(() => String, { nullable: true, description: 'Only this user’s' })
  userId?: string | null;

  @Field(() => LivenessStatusEnum, { nullable: true, description: 'Only in this status' })
  status?: LivenessStatus | null;
}
