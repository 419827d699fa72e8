import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ArrayMinSize, IsNotEmpty, MaxLength, ArrayMaxSize } from 'class-validator';
import { DELIVERY_STATUSES } from '../../../../platform/delivery/delivery.lifecycle.js';

export const WebhookDeliveryStatusEnum = Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, s])) as {
  [K in (typeof DELIVERY_STATUSES)[number]]: K;
};
registerEnumType(WebhookDeliveryStatusEnum, { name: 'WebhookDeliveryStatus' });

@InputType()
export class ConfigureWebhookInput {
  @Field({ description: 'The id of an API client of your organization' })
  @IsNotEmpty({ message: 'clientId must not be empty' })
  clientId!: string;

  @Field({ description: 'HTTPS URL receiving POSTed events' })
  @IsNotEmpty({ message: 'callbackUrl must not be empty' })
  @MaxLength(2048)
  callbackUrl!: string;

  @Field(() => [String])
  @ArrayMinSize(1, { message: 'events must contain at least one event' })
  @ArrayMaxSize(100)
  events!: string[];
}

@ObjectType('Webhook')
export class WebhookType {
  @Field(() => ID) id!: string;
  @Field() clientId!: string;
  @Field() callbackUrl!: string;
  @Field(() => [String]) events!: string[];
  @Field() active!: boolean;
  @Field() createdAt!: Date;
}

@ObjectType('CreatedWebhook')
export class CreatedWebhook extends WebhookType {
  @Field({ description: 'whsec_… signing secret, shown once' }) secret!: string;
  @Field() message!: string;
}

@ObjectType('DeletedWebhook')
export class DeletedWebhook {
  @Field(() => ID) id!: string;
  @Field() active!: boolean;
  @Field() message!: string;
}

@ObjectType('WebhookAttempt')
export class WebhookAttemptType {
  @Field(() => Int) number!: number;
  @Field() startedAt!: Date;
  @Field(() => Int, { nullable: true, description: 'HTTP status of the receiver; null when no answer' }) statusCode?: number | null;
  @Field(() => String, { nullable: true }) error?: string | null;
  @Field(() => Int) durationMs!: number;
}

@ObjectType('WebhookDelivery')
export class WebhookDeliveryType {
  @Field(() => ID) id!: string;
  @Field(() => ID) webhookId!: string;
  @Field(() => ID) eventId!: string;
  @Field() event!: string;
  @Field(() => WebhookDeliveryStatusEnum) status!: string;
  @Field(() => Int) attemptCount!: number;
  @Field(() => Date, { nullable: true }) nextAttemptAt?: Date | null;
  @Field(() => Date, { nullable: true }) deliveredAt?: Date | null;
  @Field() createdAt!: Date;
  @Field({ description: 'The exact JSON body sent' }) body!: string;
  @Field(() => [WebhookAttemptType]) attempts!: WebhookAttemptType[];
}

@ObjectType('WebhookDeliveryPage')
export class WebhookDeliveryPage {
  @Field(() => [WebhookDeliveryType]) data!: WebhookDeliveryType[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
}
