import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { NotificationDataScalar } from '../notifications/notification-data.scalar.js';
import { NotificationChannelEnum } from '../channels/channel.type.js';
import { DELIVERY_STATUSES, NOTIFICATION_STATUSES } from '../notifications/notification.lifecycle.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };
export const ChannelStatusEnum = enumOf(DELIVERY_STATUSES);
export const NotificationStatusEnum = enumOf(NOTIFICATION_STATUSES);
registerEnumType(ChannelStatusEnum, {
  name: 'ChannelStatus',
  description: 'queued → sent → delivered → opened (email), or failed / undeliverable with a reason',
});
registerEnumType(NotificationStatusEnum, { name: 'NotificationStatus', description: 'dispatched until every channel is final' });

@ObjectType('ChannelDelivery', { description: 'One channel of a notification' })
export class ChannelDeliveryType {
  @Field(() => NotificationChannelEnum) channel!: string;
  @Field(() => ChannelStatusEnum) status!: string;
  @Field({
    description: 'sandbox, smtp, africastalking, fcm, webpush… ("sandbox (no live … provider configured)" for a live key without one)',
  })
  provider!: string;
  @Field(() => Int, { nullable: true, description: 'Milliseconds from acceptance until the provider took the message' }) latencyMs?:
    number | null;
  @Field(() => Date, { nullable: true, description: 'email: first open of the tracking pixel' }) openedAt?: Date | null;
  @Field(() => String, { nullable: true, description: 'Why it failed, is undeliverable or is being retried' }) reason?: string | null;
  @Field(() => Int) attempts!: number;
  @Field(() => Date, { nullable: true }) sentAt?: Date | null;
  @Field(() => Date, { nullable: true }) deliveredAt?: Date | null;
  @Field(() => Date, { nullable: true }) failedAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'When a retry is due' }) nextAttemptAt?: Date | null;
  @Field() updatedAt!: Date;
}

@ObjectType('Notification')
export class NotificationType {
  @Field(() => ID, { description: 'notification_id' }) id!: string;
  @Field({ description: 'As sent: a recipient id, an email address or an E.164 number' }) to!: string;
  @Field(() => String, { nullable: true, description: 'Set when `to` named a recipient profile' }) recipientId?: string | null;
  @Field({ description: 'Template name' }) template!: string;
  @Field(() => Int) templateVersion!: number;
  @Field(() => ID) templateId!: string;
  @Field(() => NotificationStatusEnum) status!: string;
  @Field(() => [ChannelDeliveryType]) channels!: ChannelDeliveryType[];
  @Field(() => ID, { nullable: true }) batchId?: string | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('NotificationPage')
export class NotificationPage {
  @Field(() => [NotificationType]) data!: NotificationType[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
}

@InputType()
export class SendNotificationInput {
  @Field({ description: 'A recipient id, or an email address / E.164 number used directly on its channel' }) to!: string;
  @Field({ description: 'Template name' }) template!: string;
  @Field(() => Int, { nullable: true, description: 'Default: the latest version' }) templateVersion?: number | null;
  @Field(() => [String], { description: 'email, sms, push' }) channels!: string[];
  @Field(() => NotificationDataScalar, { nullable: true, description: 'Values of the template placeholders' }) data?: Record<
    string,
    unknown
  > | null;
}
