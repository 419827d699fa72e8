import type { Opt } from '@mikro-orm/core';
import { sealedEntity } from '../../../../platform/crypto/sealed-columns.js';
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

  @Property({ type: 'text', nullable: true, persist: false })
  email?: string | null;

  /** email, sealed with the organization's data key (platform/crypto). */
  @Property({ type: 'text', nullable: true, hidden: true })
  emailSealed?: string | null;

  /** E.164. */
  @Property({ type: 'text', nullable: true, persist: false })
  phone?: string | null;

  /** phone, sealed with the organization's data key (platform/crypto). */
  @Property({ type: 'text', nullable: true, hidden: true })
  phoneSealed?: string | null;

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

sealedEntity(Recipient, {
  table: 'notify.recipients',
  fields: [
    { plain: 'email', sealed: 'emailSealed', column: 'email_sealed', legacyColumn: 'email_plaintext' },
    { plain: 'phone', sealed: 'phoneSealed', column: 'phone_sealed', legacyColumn: 'phone_plaintext' },
  ],
});
