import { Field, InputType, Int } from 'type-graphql';
import type { ErasureStatus } from '../../../../platform/privacy/erasure.js';
import { UserErasureStatusEnum } from './privacy.type.js';

@InputType({ description: 'The user whose personal data to erase in every service' })
export class EraseUserInput {
  @Field({ description: 'Your identifier of the user (any text up to 255 characters)' })
  userId!: string;
}

@InputType({ description: 'The user whose data to export' })
export class ExportUserInput {
  @Field({ description: 'Your identifier of the user (any text up to 255 characters)' })
  userId!: string;
}

@InputType({ description: 'Which erasures to list (all of the organization when empty)' })
export class UserErasureFilter {
  @Field(() => String, { nullable: true, description: 'Only this user’s' })
  userId?: string | null;

  @Field(() => UserErasureStatusEnum, { nullable: true, description: 'Only in this status (PENDING: still under way)' })
  status?: ErasureStatus | null;
}

@InputType({
  description: 'New retention periods, in days (1 to 36,500): a period left out stays as it is, null puts it back to the default',
})
export class UpdateRetentionPolicyInput {
  @Field(() => Int, { nullable: true, description: 'Identity document images and proof-of-address documents' })
  documentsDays?: number | null;

  @Field(() => Int, { nullable: true, description: 'Liveness photos and the faces read from them' })
  livenessFramesDays?: number | null;

  @Field(() => Int, { nullable: true, description: 'Notification template data and rendered messages' })
  notificationBodiesDays?: number | null;

  @Field(() => Int, { nullable: true, description: 'Raw provider answers (company registries, mobile money account holders)' })
  providerResponsesDays?: number | null;

  @Field(() => Int, { nullable: true, description: 'Outbox event payloads and webhook delivery bodies' })
  eventPayloadsDays?: number | null;
}
