import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { JSON as JSONScalar } from '../../../../platform/graphql/scalars.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { NotificationChannelEnum } from '../channels/channel.type.js';
import type { BatchStatus } from '../notifications/notification.lifecycle.js';

/** Batch statuses in SCREAMING_CASE over their stored spelling. */
export const NotificationBatchStatusEnum = { PROCESSING: 'processing', COMPLETED: 'completed' } as const satisfies Record<
  string,
  BatchStatus
>;
registerEnumType(NotificationBatchStatusEnum, {
  name: 'NotificationBatchStatus',
  description: 'Where a batch stands',
  valuesConfig: {
    PROCESSING: { description: 'Recipients are still being handed to their providers' },
    COMPLETED: { description: 'Every recipient was handed to its providers or given up' },
  },
});

@ObjectType('BatchChannelProgress', { description: 'How many of a batch’s notifications are in each status on one channel, now' })
export class BatchChannelProgressType {
  @Field(() => NotificationChannelEnum, { description: 'The channel' })
  channel!: string;

  @Field(() => Int, { description: 'Waiting to be handed to the provider' })
  queued!: number;

  @Field(() => Int, { description: 'Taken by the provider, not yet reported delivered' })
  sent!: number;

  @Field(() => Int, { description: 'Delivered' })
  delivered!: number;

  @Field(() => Int, { description: 'Opened (email)' })
  opened!: number;

  @Field(() => Int, { description: 'Failed' })
  failed!: number;

  @Field(() => Int, { description: 'Undeliverable (no address for the channel, an invalid number…)' })
  undeliverable!: number;
}

@ObjectType('NotificationBatch', { description: 'One template sent to many recipients at once, with its progress' })
export class NotificationBatchType {
  @Field(() => ID, { description: 'Identifier of the batch' })
  id!: string;

  /** Loaded by a field resolver (batch.resolver.ts): the template version. */
  templateId!: string;

  @Field(() => [NotificationChannelEnum], { description: 'The channels every recipient is sent on' })
  channels!: string[];

  @Field(() => Int, { description: 'Recipients accepted' })
  total!: number;

  @Field(() => Int, { description: 'Recipients not yet handed to their providers (total − processed)' })
  queued!: number;

  @Field(() => Int, { description: 'Recipients handed to their providers or given up' })
  processed!: number;

  @Field(() => Int, { description: 'Processed recipients with at least one channel taken by a provider' })
  succeeded!: number;

  @Field(() => Int, { description: 'Processed recipients none of whose channels could be sent' })
  failed!: number;

  @Field(() => NotificationBatchStatusEnum, { description: 'Where it stands' })
  status!: string;

  @Field({ description: 'When it was accepted' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When its last recipient was processed' })
  completedAt?: Date | null;
}

export const BATCH_EVENT_DESCRIPTIONS: Record<string, string> = {
  'batch.created': 'The batch was accepted',
  'batch.progress': 'A chunk of recipients was processed',
  'batch.completed': 'The last recipient was processed',
};
export const NotificationBatchEvent = EventEnvelopeType(
  'NotificationBatch',
  NotificationBatchType,
  BATCH_EVENT_DESCRIPTIONS,
  'notification batch',
);

@InputType({ description: 'One recipient of a batch' })
export class BatchRecipientInput {
  @Field({ description: 'Who gets it: a recipient profile’s id (your user id), an email address or an E.164 number' })
  to!: string;

  @Field(() => JSONScalar, {
    nullable: true,
    description: 'A JSON object whose fields fill the template’s placeholders for this recipient',
  })
  data?: Record<string, unknown> | null;
}

@InputType({ description: 'Send one template to up to 10,000 recipients' })
export class SendNotificationBatchInput {
  @Field({ description: 'Name of the template' })
  template!: string;

  @Field(() => Int, { nullable: true, description: 'Version of the template; default the latest' })
  templateVersion?: number | null;

  @Field(() => [NotificationChannelEnum], { description: 'The channels to send on, each once' })
  channels!: string[];

  @Field(() => [BatchRecipientInput], { description: '1 to 10,000 recipients' })
  recipients!: BatchRecipientInput[];
}

@ObjectType('SendNotificationBatchPayload', { description: 'The result of sendNotificationBatch' })
export class SendNotificationBatchPayload {
  @Field(() => NotificationBatchType, {
    nullable: true,
    description:
      'The accepted batch (PROCESSING, or COMPLETED when no recipient could be reached), or the first one again for a repeated Idempotency-Key',
  })
  notificationBatch?: NotificationBatchType | null;

  @Field(() => [UserError], {
    description:
      'Mistakes in the input (every recipient is checked first: nothing is stored then), an unknown template, a reused Idempotency-Key; empty on success',
  })
  userErrors!: UserError[];
}
