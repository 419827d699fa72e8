import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { NotificationChannelEnum } from '../channels/channel.type.js';

@ObjectType('EmailTemplate', { description: 'What a template sends by email' })
export class EmailTemplateType {
  @Field({ description: 'The subject line; placeholders are inserted as they are' })
  subject!: string;

  @Field({ description: 'The HTML body; placeholders are HTML-escaped ({{{field}}} inserts raw HTML)' })
  html!: string;
}

@ObjectType('SmsTemplate', { description: 'What a template sends by SMS' })
export class SmsTemplateType {
  @Field({ description: 'The text of the message' })
  body!: string;
}

@ObjectType('PushTemplate', { description: 'What a template sends as a push notification' })
export class PushTemplateType {
  @Field({ description: 'The title shown on the device' })
  title!: string;

  @Field({ description: 'The text shown under the title' })
  body!: string;
}

@ObjectType('WhatsAppTemplate', {
  description: 'What a template sends by WhatsApp: an approved WhatsApp message template, filled with body parameters',
})
export class WhatsAppTemplateType {
  @Field({ description: 'Name of the message template approved in WhatsApp Business Manager' })
  template!: string;

  @Field({ description: 'Its language code (en, fr, pt_BR…)' })
  language!: string;

  @Field(() => [String], { description: 'Body parameters {{1}}, {{2}}… of the approved template, in order' })
  parameters!: string[];
}

@ObjectType('VoiceTemplate', { description: 'What a template says in a voice call' })
export class VoiceTemplateType {
  @Field({ description: 'The text said when the call is answered (digits one by one, twice)' })
  text!: string;
}

@ObjectType('TemplateContent', { description: 'A template’s content on each of its channels' })
export class TemplateContentType {
  @Field(() => EmailTemplateType, { nullable: true, description: 'Email content; null when the template has none' })
  email?: EmailTemplateType | null;

  @Field(() => SmsTemplateType, { nullable: true, description: 'SMS content; null when the template has none' })
  sms?: SmsTemplateType | null;

  @Field(() => PushTemplateType, { nullable: true, description: 'Push content; null when the template has none' })
  push?: PushTemplateType | null;

  @Field(() => WhatsAppTemplateType, { nullable: true, description: 'WhatsApp content; null when the template has none' })
  whatsapp?: WhatsAppTemplateType | null;

  @Field(() => VoiceTemplateType, { nullable: true, description: 'Voice call content; null when the template has none' })
  voice?: VoiceTemplateType | null;
}

@ObjectType('NotificationTemplate', {
  description: 'One version of a named template: what a notification says on each channel, with {{field}} placeholders',
})
export class NotificationTemplateType {
  @Field(() => ID, { description: 'Identifier of this version' })
  id!: string;

  @Field({ description: 'The template’s name, which sends use' })
  name!: string;

  @Field(() => Int, { description: 'Starts at 1; every save of the name adds one; versions never change' })
  version!: number;

  @Field(() => [NotificationChannelEnum], { description: 'The channels it has content for' })
  channels!: string[];

  @Field(() => TemplateContentType, { description: 'Its content per channel' })
  content!: TemplateContentType;

  @Field(() => [String], { description: 'Data fields every send must give (placeholders outside {{#if}} and other blocks)' })
  placeholders!: string[];

  @Field({ description: 'When this version was saved' })
  createdAt!: Date;
}

export const NotificationTemplateConnection = ConnectionType('NotificationTemplate', NotificationTemplateType, 'notification template');

@InputType({ description: 'Email content of a template' })
export class EmailTemplateInput {
  @Field({ description: 'The subject line (at most 998 characters)' })
  subject!: string;

  @Field({ description: 'The HTML body (at most 256 KB); placeholders are HTML-escaped, {{{field}}} inserts raw HTML' })
  html!: string;
}

@InputType({ description: 'SMS content of a template' })
export class SmsTemplateInput {
  @Field({ description: 'The text (at most 1,600 characters)' })
  body!: string;
}

@InputType({ description: 'Push content of a template' })
export class PushTemplateInput {
  @Field({ description: 'The title (at most 200 characters)' })
  title!: string;

  @Field({ description: 'The text (at most 4,000 characters)' })
  body!: string;
}

@InputType({ description: 'WhatsApp content of a template: an approved WhatsApp message template' })
export class WhatsAppTemplateInput {
  @Field({ description: 'Name of the approved message template (lower-case letters, digits and _)' })
  template!: string;

  @Field({ description: 'Its language code (en, fr, pt_BR…)' })
  language!: string;

  @Field(() => [String], {
    nullable: true,
    description: 'Body parameters {{1}}, {{2}}… in order (at most 20, each at most 1,024 characters); placeholders are {{field}}',
  })
  parameters?: string[] | null;
}

@InputType({ description: 'Voice call content of a template' })
export class VoiceTemplateInput {
  @Field({ description: 'The text to say (at most 2,000 characters)' })
  text!: string;
}

@InputType({ description: 'A template’s content per channel: at least one' })
export class TemplateChannelsInput {
  @Field(() => EmailTemplateInput, { nullable: true, description: 'Email content' })
  email?: EmailTemplateInput | null;

  @Field(() => SmsTemplateInput, { nullable: true, description: 'SMS content' })
  sms?: SmsTemplateInput | null;

  @Field(() => PushTemplateInput, { nullable: true, description: 'Push content' })
  push?: PushTemplateInput | null;

  @Field(() => WhatsAppTemplateInput, { nullable: true, description: 'WhatsApp content' })
  whatsapp?: WhatsAppTemplateInput | null;

  @Field(() => VoiceTemplateInput, { nullable: true, description: 'Voice call content' })
  voice?: VoiceTemplateInput | null;
}

@InputType({ description: 'Save a template: a new version of its name' })
export class CreateNotificationTemplateInput {
  @Field({ description: 'Letters, digits, _ . - (at most 100); saving an existing name adds a version' })
  name!: string;

  @Field(() => TemplateChannelsInput, { description: 'Content per channel; placeholders are {{field}}' })
  channels!: TemplateChannelsInput;
}

@ObjectType('CreateNotificationTemplatePayload', { description: 'The result of createNotificationTemplate' })
export class CreateNotificationTemplatePayload {
  @Field(() => NotificationTemplateType, { nullable: true, description: 'The new version' })
  notificationTemplate?: NotificationTemplateType | null;

  @Field(() => [UserError], { description: 'Mistakes in the input (each field named); empty on success' })
  userErrors!: UserError[];
}
