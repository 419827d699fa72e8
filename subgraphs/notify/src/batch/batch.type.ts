import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { NotificationDataScalar } from '../notifications/notification-data.scalar.js';
import { NotificationChannelEnum } from '../channels/channel.type.js';
import { BATCH_STATUSES } from '../notifications/notification.lifecycle.js';

export const NotificationBatchStatusEnum = Object.fromEntries(BATCH_STATUSES.map((s) => [s, s])) as {
  [K in (typeof BATCH_STATUSES)[number]]: K;
};
registerEnumType(NotificationBatchStatusEnum, {
  name: 'NotificationBatchStatus',
  description: 'processing until every recipient was handed to its providers (or given up)',
});

@ObjectType('BatchChannelProgress', { description: "Current channel statuses of the batch's notifications" })
export class BatchChannelProgressType {
  @Field(() => NotificationChannelEnum) channel!: string;
  @Field(() => Int) queued!: number;
  @Field(() => Int) sent!: number;
  @Field(() => Int) delivered!: number;
  @Field(() => Int) opened!: number;
  @Field(() => Int) failed!: number;
  @Field(() => Int) undeliverable!: number;
}

@ObjectType('NotificationBatch')
export class NotificationBatchType {
  @Field(() => ID, { description: 'batch_id' }) id!: string;
  @Field({ description: 'Template name' }) template!: string;
  @Field(() => Int) templateVersion!: number;
  @Field(() => ID) templateId!: string;
  @Field(() => [NotificationChannelEnum]) channels!: string[];
  @Field(() => Int, { description: 'Recipients accepted' }) total!: number;
  @Field(() => Int, { description: 'Recipients not yet handed to their providers (total − processed)' }) queued!: number;
  @Field(() => Int) processed!: number;
  @Field(() => Int, { description: 'Processed recipients with at least one channel taken by a provider' }) succeeded!: number;
  @Field(() => Int, { description: 'Processed recipients none of whose channels could be sent' }) failed!: number;
  @Field(() => NotificationBatchStatusEnum) status!: string;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) completedAt?: Date | null;
}

@InputType()
export class BatchRecipientInput {
  @Field({ description: 'A recipient id, an email address or an E.164 number' }) to!: string;
  @Field(() => NotificationDataScalar, { nullable: true }) data?: Record<string, unknown> | null;
}

@InputType()
export class SendNotificationBatchInput {
  @Field({ description: 'Template name' }) template!: string;
  @Field(() => Int, { nullable: true, description: 'Default: the latest version' }) templateVersion?: number | null;
  @Field(() => [String], { description: 'email, sms, push' }) channels!: string[];
  @Field(() => [BatchRecipientInput], { description: 'Up to 10,000' }) recipients!: BatchRecipientInput[];
}
