import { Field, ID, Int, ObjectType } from 'type-graphql';
import { NotificationChannelEnum } from './channel.type.js';

@ObjectType('SandboxMessage', { description: 'A message a sandbox provider "sent": recorded, never delivered' })
export class SandboxMessageType {
  @Field(() => ID) id!: string;
  @Field(() => ID) notificationId!: string;
  @Field(() => NotificationChannelEnum) channel!: string;
  @Field({ description: 'Email address, E.164 number, or the push tokens / endpoints' }) to!: string;
  @Field(() => String, { nullable: true }) subject?: string | null;
  @Field(() => String, { nullable: true, description: 'email, with the open-tracking pixel' }) html?: string | null;
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) body?: string | null;
  @Field() createdAt!: Date;
}

@ObjectType('SandboxMessagePage')
export class SandboxMessagePage {
  @Field(() => [SandboxMessageType]) data!: SandboxMessageType[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
}
