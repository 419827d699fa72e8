import { Field, InputType, ObjectType } from 'type-graphql';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { PhoneNumber } from '../../../../platform/graphql/scalars.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';

@ObjectType('WebPushKeys', { description: 'The keys a browser hands out with its push subscription' })
export class WebPushKeysType {
  @Field({ description: 'The subscription’s P-256 public key (base64url)' })
  p256dh!: string;

  @Field({ description: 'The subscription’s authentication secret (base64url)' })
  auth!: string;
}

@ObjectType('WebPushSubscription', { description: 'A browser’s Web Push subscription (its PushSubscription JSON)' })
export class WebPushSubscriptionType {
  @Field({ description: 'The push service’s HTTPS endpoint for this browser' })
  endpoint!: string;

  @Field(() => WebPushKeysType, { description: 'The keys messages are encrypted with' })
  keys!: WebPushKeysType;
}

@ObjectType('NotificationRecipient', {
  description: 'A recipient profile: where one of your users is reached on each channel. Its id is your id of the user',
})
export class NotificationRecipientType {
  @Field({
    description: 'Your id of the user (any text that is not an email address or phone number); `to` of the notifications you send them',
  })
  id!: string;

  @Field(() => String, { nullable: true, description: 'Email address' })
  email?: string | null;

  @Field(() => PhoneNumber, { nullable: true, description: 'Phone number for SMS, E.164 (e.g. +254712345678)' })
  phone?: string | null;

  @Field(() => [String], { description: 'FCM registration tokens of the user’s devices' })
  pushTokens!: string[];

  @Field(() => [WebPushSubscriptionType], { description: 'Web Push subscriptions of the user’s browsers' })
  webPushSubscriptions!: WebPushSubscriptionType[];

  @Field(() => String, { nullable: true, description: 'Preferred language, BCP 47 (e.g. en-KE)' })
  locale?: string | null;

  @Field({ description: 'When the profile was created' })
  createdAt!: Date;

  @Field({ description: 'When the profile last changed' })
  updatedAt!: Date;
}

export const NotificationRecipientConnection = ConnectionType('NotificationRecipient', NotificationRecipientType, 'recipient profile');

@InputType({ description: 'The keys of a browser’s push subscription' })
export class WebPushKeysInput {
  @Field({ description: 'P-256 public key, base64url (65 bytes)' })
  p256dh!: string;

  @Field({ description: 'Authentication secret, base64url (16 bytes)' })
  auth!: string;
}

@InputType({ description: 'A browser’s Web Push subscription, as `PushSubscription.toJSON()` gives it' })
export class WebPushSubscriptionInput {
  @Field({ description: 'HTTPS endpoint of the push service' })
  endpoint!: string;

  @Field(() => WebPushKeysInput, { description: 'The subscription’s keys' })
  keys!: WebPushKeysInput;
}

/** Absent fields keep their value; null clears them (lists: null or [] empties them). */
@InputType({ description: 'Create a recipient profile, or change the fields given (absent fields keep their value; null clears one)' })
export class UpsertNotificationRecipientInput {
  @Field({ description: 'Your id of the user: 1-200 characters, not an email address or phone number (those are sent to directly)' })
  id!: string;

  @Field(() => String, { nullable: true, description: 'Email address' })
  email?: string | null;

  @Field(() => String, { nullable: true, description: 'Phone number for SMS, E.164 (e.g. +254712345678)' })
  phone?: string | null;

  @Field(() => [String], { nullable: true, description: 'FCM registration tokens (at most 20); they replace the current ones' })
  pushTokens?: string[] | null;

  @Field(() => [WebPushSubscriptionInput], {
    nullable: true,
    description: 'Web Push subscriptions (at most 20); they replace the current ones',
  })
  webPushSubscriptions?: WebPushSubscriptionInput[] | null;

  @Field(() => String, { nullable: true, description: 'Preferred language, BCP 47 (e.g. en-KE)' })
  locale?: string | null;
}

@InputType({ description: 'Delete a recipient profile' })
export class DeleteNotificationRecipientInput {
  @Field({ description: 'Your id of the user whose profile to delete' })
  id!: string;
}

@ObjectType('UpsertNotificationRecipientPayload', { description: 'The result of upsertNotificationRecipient' })
export class UpsertNotificationRecipientPayload {
  @Field(() => NotificationRecipientType, { nullable: true, description: 'The profile as it is now' })
  notificationRecipient?: NotificationRecipientType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input (each field named); empty on success' })
  userErrors!: UserError[];
}

@ObjectType('DeleteNotificationRecipientPayload', { description: 'The result of deleteNotificationRecipient' })
export class DeleteNotificationRecipientPayload {
  @Field(() => String, { nullable: true, description: 'The id of the deleted profile (past notifications keep their addresses)' })
  deletedNotificationRecipientId?: string | null;

  @Field(() => [UserError], { description: 'A profile that does not exist; empty on success' })
  userErrors!: UserError[];
}
