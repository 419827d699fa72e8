import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { ArrayMaxSize, ArrayMinSize, IsNotEmpty, MaxLength } from 'class-validator';
import type { DeliveryStatus } from '../../../../platform/delivery/delivery.lifecycle.js';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { URL as URLScalar } from '../../../../platform/graphql/scalars.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { DeliveryStatusEnum } from '../../../../platform/graphql/delivery-status.js';
import type { WebhookEventName } from './webhook-catalog.js';
import { WebhookEventEnum } from './webhook-events.js';
import { WEBHOOK_DELIVERY_EVENT_DESCRIPTIONS } from './webhook-delivery.events.js';

@ObjectType('Webhook', { description: 'An HTTPS address that receives the organization’s events as they happen, signed with its secret' })
export class WebhookType {
  @Field(() => ID, { description: 'Identifier of the webhook' })
  id!: string;

  /** Loaded by a field resolver (`client`). */
  clientId!: string;

  @Field(() => URLScalar, { description: 'Where the events are POSTed' })
  callbackUrl!: string;

  @Field(() => [WebhookEventEnum], { description: 'The events it receives' })
  events!: WebhookEventName[];

  @Field({ description: 'false once deactivated: it receives nothing more, its deliveries stay readable' })
  active!: boolean;

  @Field({ description: 'When it was configured' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When it was deactivated' })
  deactivatedAt?: Date | null;
}

@ObjectType('WebhookAttempt', { description: 'One attempt to deliver an event: a signed POST and the receiver’s answer' })
export class WebhookAttemptType {
  @Field(() => Int, { description: '1 for the first attempt, then 2, 3…' })
  number!: number;

  @Field({ description: 'When the POST started' })
  startedAt!: Date;

  @Field(() => Int, { nullable: true, description: 'HTTP status the receiver answered; null when it did not answer' })
  statusCode?: number | null;

  @Field(() => String, {
    nullable: true,
    description: 'Why the attempt failed (timeout, connection refused, non-2xx…); null when it succeeded',
  })
  error?: string | null;

  @Field(() => Int, { description: 'How long the attempt took, in milliseconds' })
  durationMs!: number;
}

@ObjectType('WebhookDelivery', { description: 'One event sent to one webhook, with its schedule and every attempt' })
export class WebhookDeliveryType {
  @Field(() => ID, { description: 'Identifier of the delivery' })
  id!: string;

  /** Loaded by field resolvers (`webhook`, `attempts`). */
  webhookId!: string;
  attempts?: WebhookAttemptType[];

  @Field(() => ID, { description: 'Identifier of the event; the same in every delivery of it (one per webhook)' })
  eventId!: string;

  @Field(() => WebhookEventEnum, { description: 'The event delivered' })
  event!: WebhookEventName;

  @Field(() => DeliveryStatusEnum, { description: 'Where it stands' })
  status!: DeliveryStatus;

  @Field(() => Int, { description: 'Attempts made so far' })
  attemptCount!: number;

  @Field(() => Date, { nullable: true, description: 'When the next attempt is due (PENDING only)' })
  nextAttemptAt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the receiver accepted it' })
  deliveredAt?: Date | null;

  @Field({ description: 'When the event became this delivery' })
  createdAt!: Date;

  @Field({ description: 'The exact JSON body signed and sent, the same on every attempt' })
  body!: string;
}

export const WebhookConnection = ConnectionType('Webhook', WebhookType, 'webhook');
export const WebhookDeliveryConnection = ConnectionType('WebhookDelivery', WebhookDeliveryType, 'webhook delivery', 'webhook deliveries');
export const WebhookDeliveryEvent = EventEnvelopeType(
  'WebhookDelivery',
  WebhookDeliveryType,
  WEBHOOK_DELIVERY_EVENT_DESCRIPTIONS,
  'webhook delivery',
);

@InputType({ description: 'A new webhook: where to POST which events' })
export class ConfigureWebhookInput {
  // String, not ID: ID would take a number, which the REST form has always refused as no string (400)
  @Field({ description: 'The id of the API client of your organization the webhook belongs to' })
  @IsNotEmpty({ message: 'clientId must not be empty' })
  clientId!: string;

  @Field({ description: 'HTTPS URL receiving the POSTed events; it must resolve to a public address' })
  @IsNotEmpty({ message: 'callbackUrl must not be empty' })
  @MaxLength(2048)
  callbackUrl!: string;

  @Field(() => [WebhookEventEnum], { description: 'The events to receive (at least one)' })
  @ArrayMinSize(1, { message: 'events must contain at least one event' })
  @ArrayMaxSize(100)
  events!: WebhookEventName[];
}

@InputType({ description: 'The webhook to deactivate' })
export class DeactivateWebhookInput {
  @Field(() => ID, { description: 'The webhook' })
  id!: string;
}

@InputType({ description: 'The delivery to attempt again' })
export class RedeliverWebhookInput {
  @Field(() => ID, { description: 'The delivery (any status)' })
  deliveryId!: string;
}

@InputType({ description: 'Which webhooks to list (all of the organization’s when empty)' })
export class WebhookFilter {
  @Field(() => ID, { nullable: true, description: 'Only those of this API client' })
  clientId?: string | null;
}

@InputType({ description: 'Which webhook deliveries to list (all of the organization’s when empty)' })
export class WebhookDeliveryFilter {
  @Field(() => ID, { nullable: true, description: 'Only the deliveries of this webhook' })
  webhookId?: string | null;

  @Field(() => DeliveryStatusEnum, { nullable: true, description: 'Only in this status (FAILED: the deliveries to look at)' })
  status?: DeliveryStatus | null;
}

@ObjectType('ConfigureWebhookPayload', { description: 'The result of configureWebhook' })
export class ConfigureWebhookPayload {
  @Field(() => WebhookType, { nullable: true, description: 'The new webhook' })
  webhook?: WebhookType | null;

  @Field(() => String, {
    nullable: true,
    description: 'Its signing secret (whsec_…), shown this once: receivers check each delivery’s signature with it',
  })
  secret?: string | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('DeactivateWebhookPayload', { description: 'The result of deactivateWebhook' })
export class DeactivateWebhookPayload {
  @Field(() => WebhookType, { nullable: true, description: 'The webhook, inactive (deactivating it again changes nothing)' })
  webhook?: WebhookType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('RedeliverWebhookPayload', { description: 'The result of redeliverWebhook' })
export class RedeliverWebhookPayload {
  @Field(() => WebhookDeliveryType, { nullable: true, description: 'The delivery, PENDING again and due now' })
  webhookDelivery?: WebhookDeliveryType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input, or a delivery of a deactivated webhook; empty on success' })
  userErrors!: UserError[];
}
