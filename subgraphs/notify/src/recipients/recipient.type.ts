import { Field, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('WebPushKeys')
export class WebPushKeysType {
  @Field() p256dh!: string;
  @Field() auth!: string;
}

@ObjectType('WebPushSubscription')
export class WebPushSubscriptionType {
  @Field() endpoint!: string;
  @Field(() => WebPushKeysType) keys!: WebPushKeysType;
}

@ObjectType('NotificationRecipient')
export class NotificationRecipientType {
  @Field({ description: 'Your id for the recipient, used as `to` when sending' }) id!: string;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true, description: 'E.164, e.g. +254712345678' }) phone?: string | null;
  @Field(() => [String], { description: 'FCM registration tokens' }) pushTokens!: string[];
  @Field(() => [WebPushSubscriptionType]) webPushSubscriptions!: WebPushSubscriptionType[];
  @Field(() => String, { nullable: true }) locale?: string | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('NotificationRecipientPage')
export class NotificationRecipientPage {
  @Field(() => [NotificationRecipientType]) data!: NotificationRecipientType[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
}

@ObjectType('DeletedNotificationRecipient')
export class DeletedNotificationRecipient {
  @Field() id!: string;
  @Field() deleted!: boolean;
}

@InputType()
export class WebPushKeysInput {
  @Field() p256dh!: string;
  @Field() auth!: string;
}

@InputType()
export class WebPushSubscriptionInput {
  @Field({ description: 'HTTPS endpoint of the push service' }) endpoint!: string;
  @Field(() => WebPushKeysInput) keys!: WebPushKeysInput;
}

/** Absent fields keep their value; null clears them (lists: null or [] empties them). */
@InputType()
export class NotificationRecipientInput {
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true, description: 'E.164, e.g. +254712345678' }) phone?: string | null;
  @Field(() => [String], { nullable: true, description: 'FCM registration tokens' }) pushTokens?: string[] | null;
  @Field(() => [WebPushSubscriptionInput], { nullable: true }) webPushSubscriptions?: WebPushSubscriptionInput[] | null;
  @Field(() => String, { nullable: true, description: 'BCP 47, e.g. en-KE' }) locale?: string | null;
}
