import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { WebPushSubscription } from '../channels/channel.js';

/** A recipient profile; `id` is the caller's own (e.g. their user id), unique per organization and environment. */
@Entity({ schema: 'notify', tableName: 'recipients' })
export class Recipient {
  @PrimaryKey({ type: 'uuid' })
  organizationId!: string;

  @PrimaryKey({ type: 'text' })
  environment!: string;

  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'text', nullable: true })
  email?: string | null;

  /** E.164. */
  @Property({ type: 'text', nullable: true })
  phone?: string | null;

  /** FCM registration tokens. */
  @Property({ type: 'json' })
  pushTokens: string[] & Opt = [];

  @Property({ type: 'json' })
  webPushSubscriptions: WebPushSubscription[] & Opt = [];

  @Property({ type: 'text', nullable: true })
  locale?: string | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
