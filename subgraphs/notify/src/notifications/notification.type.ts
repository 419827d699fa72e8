import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { JSON as JSONScalar } from '../../../../platform/graphql/scalars.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { NotificationChannelEnum } from '../channels/channel.type.js';
import type { DeliveryStatus, NotificationStatus } from './notification.lifecycle.js';

/** Channel statuses in SCREAMING_CASE over their stored spelling. */
export const ChannelStatusEnum = {
  QUEUED: 'queued',
  SENT: 'sent',
  DELIVERED: 'delivered',
  OPENED: 'opened',
  FAILED: 'failed',
  UNDELIVERABLE: 'undeliverable',
} as const satisfies Record<string, DeliveryStatus>;
registerEnumType(ChannelStatusEnum, {
  name: 'ChannelStatus',
  description: 'Where one channel of a notification stands: QUEUED → SENT → DELIVERED → OPENED, or FAILED / UNDELIVERABLE with a reason',
  valuesConfig: {
    QUEUED: { description: 'Accepted; waiting to be handed to the provider (or for a retry)' },
    SENT: { description: 'The provider took the message; a delivery report may follow (SMS)' },
    DELIVERED: {
      description: 'Delivered: the mail server accepted the recipient, the delivery report said so, or the push service took it',
    },
    OPENED: { description: 'The recipient opened the email (first load of its tracking pixel)' },
    FAILED: { description: 'It could not be sent after the retries, or the delivery report said it failed' },
    UNDELIVERABLE: { description: 'It cannot reach the recipient: no address for this channel, an invalid number, an unknown mailbox…' },
  },
});

/** Notification statuses in SCREAMING_CASE over their stored spelling. */
export const NotificationStatusEnum = {
  DISPATCHED: 'dispatched',
  DELIVERED: 'delivered',
  PARTIALLY_DELIVERED: 'partially_delivered',
  FAILED: 'failed',
} as const satisfies Record<string, NotificationStatus>;
registerEnumType(NotificationStatusEnum, {
  name: 'NotificationStatus',
  description: 'Where a notification stands, from its channels',
  valuesConfig: {
    DISPATCHED: { description: 'At least one channel is still on its way (QUEUED or SENT)' },
    DELIVERED: { description: 'Every channel was delivered (or opened)' },
    PARTIALLY_DELIVERED: { description: 'Some channels were delivered, the others failed or were undeliverable' },
    FAILED: { description: 'No channel was delivered' },
  },
});

@ObjectType('ChannelDelivery', { description: 'One channel of a notification: how far it got' })
export class ChannelDeliveryType {
  @Field(() => NotificationChannelEnum, { description: 'The channel' })
  channel!: string;

  @Field(() => ChannelStatusEnum, { description: 'Where it stands' })
  status!: string;

  @Field({
    description:
      'Who carries it: sandbox, smtp, africastalking, fcm, webpush, whatsapp-cloud, africastalking-voice ("sandbox (no live … provider configured)" for a live key without one)',
  })
  provider!: string;

  @Field(() => Int, { nullable: true, description: 'Milliseconds from acceptance until the provider took the message' })
  latencyMs?: number | null;

  @Field(() => Date, { nullable: true, description: 'When the recipient first opened it (email only)' })
  openedAt?: Date | null;

  @Field(() => String, { nullable: true, description: 'Why it failed, is undeliverable or is being retried' })
  reason?: string | null;

  @Field(() => Int, { description: 'How many times it was handed to the provider' })
  attempts!: number;

  @Field(() => Date, { nullable: true, description: 'When the provider took it' })
  sentAt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When it was delivered' })
  deliveredAt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When it failed or was found undeliverable' })
  failedAt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the next attempt is due (after a provider error that may pass)' })
  nextAttemptAt?: Date | null;

  @Field({ description: 'When it last changed' })
  updatedAt!: Date;
}

@ObjectType('Notification', { description: 'One message sent from a template to one recipient, on one or more channels' })
export class NotificationType {
  @Field(() => ID, { description: 'Identifier of the notification' })
  id!: string;

  @Field({
    description: 'Where it was sent, as you gave it: a recipient profile’s id (your user id), an email address or an E.164 number',
  })
  to!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'Your id of the recipient profile it was sent to (your user id), also after the profile is deleted; null when it was sent straight to an address',
  })
  recipientId?: string | null;

  @Field(() => NotificationStatusEnum, { description: 'Where it stands, from its channels' })
  status!: string;

  @Field(() => [ChannelDeliveryType], { description: 'Each channel it goes out on, in the order email, SMS, push' })
  channels!: ChannelDeliveryType[];

  /** Loaded by field resolvers (notification.resolver.ts): the template version and the batch. */
  templateId!: string;
  batchId?: string | null;

  @Field({ description: 'When it was accepted' })
  createdAt!: Date;

  @Field({ description: 'When it last changed (a channel moved)' })
  updatedAt!: Date;
}

export const NotificationConnection = ConnectionType('Notification', NotificationType, 'notification');

export const NOTIFICATION_EVENT_DESCRIPTIONS: Record<string, string> = {
  'notification.dispatched': 'The notification was accepted (single sends; a batch announces its notifications with the batch)',
  'notification.updated': 'A channel of the notification moved (sent, delivered, opened, failed…)',
};
export const NotificationEvent = EventEnvelopeType('Notification', NotificationType, NOTIFICATION_EVENT_DESCRIPTIONS, 'notification');

@InputType({ description: 'Which notifications to list (all of the organization’s when empty)' })
export class NotificationFilter {
  @Field(() => String, { nullable: true, description: 'Only those sent to this `to`, exactly as it was given' })
  to?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Only those sent to this recipient profile (your user id), whatever `to` said',
  })
  recipientId?: string | null;

  @Field(() => NotificationStatusEnum, { nullable: true, description: 'Only those in this status' })
  status?: NotificationStatus | null;

  @Field(() => ID, { nullable: true, description: 'Only those of this batch, in recipient order' })
  batchId?: string | null;
}

@InputType({ description: 'Send one notification from a template' })
export class SendNotificationInput {
  @Field({
    description: 'Who gets it: a recipient profile’s id (your user id), or an email address / E.164 number used directly on its channel',
  })
  to!: string;

  @Field({ description: 'Name of the template' })
  template!: string;

  @Field(() => Int, { nullable: true, description: 'Version of the template; default the latest' })
  templateVersion?: number | null;

  @Field(() => [NotificationChannelEnum], { description: 'The channels to send it on, each once' })
  channels!: string[];

  @Field(() => JSONScalar, {
    nullable: true,
    description: 'A JSON object whose fields fill the template’s placeholders ({{first_name}} ← {"first_name": "Ama"})',
  })
  data?: Record<string, unknown> | null;
}

@ObjectType('SendNotificationPayload', { description: 'The result of sendNotification' })
export class SendNotificationPayload {
  @Field(() => NotificationType, {
    nullable: true,
    description:
      'The accepted notification (status DISPATCHED; the channels move on), or the first one again for a repeated Idempotency-Key',
  })
  notification?: NotificationType | null;

  @Field(() => [UserError], {
    description: 'Mistakes in the input, an unknown template or recipient, a reused Idempotency-Key; empty on success',
  })
  userErrors!: UserError[];
}
