import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { NotificationChannelEnum } from './channel.type.js';
import { WhatsAppTemplateType } from '../templates/template.type.js';

@ObjectType('SandboxMessage', { description: 'A message a sandbox provider "sent": recorded so you can read it, never delivered' })
export class SandboxMessageType {
  @Field(() => ID, { description: 'Identifier of the message' })
  id!: string;

  /** Loaded by a field resolver (sandbox.resolver.ts): the notification. */
  notificationId!: string;

  @Field(() => NotificationChannelEnum, { description: 'The channel it was "sent" on' })
  channel!: string;

  @Field({ description: 'Where it went: the email address, the E.164 number (SMS, WhatsApp, voice), or the push tokens / endpoints' })
  to!: string;

  @Field(() => String, { nullable: true, description: 'Email subject' })
  subject?: string | null;

  @Field(() => String, { nullable: true, description: 'Email HTML, with the open-tracking pixel' })
  html?: string | null;

  @Field(() => String, { nullable: true, description: 'Push title' })
  title?: string | null;

  @Field(() => String, { nullable: true, description: 'SMS text, push text, or what a voice call said' })
  body?: string | null;

  @Field(() => WhatsAppTemplateType, {
    nullable: true,
    description: 'WhatsApp: the approved template, its language and the rendered body parameters',
  })
  whatsapp?: WhatsAppTemplateType | null;

  @Field({ description: 'When it was "sent"' })
  createdAt!: Date;
}

export const SandboxMessageConnection = ConnectionType('SandboxMessage', SandboxMessageType, 'sandbox message');

@InputType({ description: 'Which sandbox messages to list (all of yours when empty)' })
export class SandboxMessageFilter {
  @Field(() => ID, { nullable: true, description: 'Only those of this notification' })
  notificationId?: string | null;

  @Field(() => NotificationChannelEnum, { nullable: true, description: 'Only those on this channel' })
  channel?: string | null;

  @Field(() => String, { nullable: true, description: 'Only those sent to this address (email address, E.164 number or push token)' })
  to?: string | null;
}
