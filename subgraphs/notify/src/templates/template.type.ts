import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { NotificationChannelEnum } from '../channels/channel.type.js';

@ObjectType('EmailTemplate')
export class EmailTemplateType {
  @Field() subject!: string;
  @Field({ description: 'Placeholders are HTML-escaped ({{{field}}} inserts raw HTML)' }) html!: string;
}

@ObjectType('SmsTemplate')
export class SmsTemplateType {
  @Field() body!: string;
}

@ObjectType('PushTemplate')
export class PushTemplateType {
  @Field() title!: string;
  @Field() body!: string;
}

@ObjectType('TemplateContent')
export class TemplateContentType {
  @Field(() => EmailTemplateType, { nullable: true }) email?: EmailTemplateType | null;
  @Field(() => SmsTemplateType, { nullable: true }) sms?: SmsTemplateType | null;
  @Field(() => PushTemplateType, { nullable: true }) push?: PushTemplateType | null;
}

@ObjectType('NotificationTemplate')
export class NotificationTemplateType {
  @Field(() => ID, { description: 'Identifies this version (template_id)' }) id!: string;
  @Field() name!: string;
  @Field(() => Int, { description: 'Starts at 1; every save of the name adds one; versions never change' }) version!: number;
  @Field(() => [NotificationChannelEnum]) channels!: string[];
  @Field(() => TemplateContentType) content!: TemplateContentType;
  @Field(() => [String], { description: 'Data fields every send must give (placeholders outside {{#if}} and other blocks)' })
  placeholders!: string[];
  @Field() createdAt!: Date;
}

@ObjectType('NotificationTemplatePage')
export class NotificationTemplatePage {
  @Field(() => [NotificationTemplateType]) data!: NotificationTemplateType[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
}

@InputType()
export class EmailTemplateInput {
  @Field() subject!: string;
  @Field() html!: string;
}

@InputType()
export class SmsTemplateInput {
  @Field() body!: string;
}

@InputType()
export class PushTemplateInput {
  @Field() title!: string;
  @Field() body!: string;
}

@InputType()
export class TemplateChannelsInput {
  @Field(() => EmailTemplateInput, { nullable: true }) email?: EmailTemplateInput | null;
  @Field(() => SmsTemplateInput, { nullable: true }) sms?: SmsTemplateInput | null;
  @Field(() => PushTemplateInput, { nullable: true }) push?: PushTemplateInput | null;
}

@InputType()
export class CreateNotificationTemplateInput {
  @Field({ description: 'Letters, digits, _ . - (at most 100); saving an existing name adds a version' }) name!: string;
  @Field(() => TemplateChannelsInput, { description: 'Content per channel; placeholders are {{field}}' }) channels!: TemplateChannelsInput;
}
