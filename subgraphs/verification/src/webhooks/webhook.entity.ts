import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

@Entity({ schema: 'verification', tableName: 'webhooks' })
export class Webhook {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  clientId!: string;

  @Property({ type: 'text' })
  callbackUrl!: string;

  @Property({ type: 'json' })
  events!: string[];

  /** Needed in clear to sign deliveries; never returned after creation. */
  @Property({ type: 'text', hidden: true })
  secret!: string;

  @Property({ type: 'boolean' })
  active: boolean & Opt = true;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', nullable: true })
  deactivatedAt?: Date | null;
}

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event for one webhook; attempts are recorded beside it. */
@Entity({ schema: 'verification', tableName: 'webhook_deliveries' })
export class WebhookDelivery {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'uuid' })
  webhookId!: string;

  @Property({ type: 'uuid' })
  eventId!: string;

  @Property({ type: 'text' })
  event!: string;

  /** The exact bytes signed and sent, so every retry is identical. */
  @Property({ type: 'text' })
  body!: string;

  @Property({ type: 'text' })
  status: DeliveryStatus & Opt = 'PENDING';

  @Property({ type: 'integer' })
  attemptCount: number & Opt = 0;

  @Property({ type: 'datetime', nullable: true })
  nextAttemptAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  deliveredAt?: Date | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();
}

@Entity({ schema: 'verification', tableName: 'webhook_attempts' })
export class WebhookAttempt {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id?: string;

  @Property({ type: 'uuid' })
  deliveryId!: string;

  @Property({ type: 'integer' })
  number!: number;

  @Property({ type: 'datetime' })
  startedAt!: Date;

  @Property({ type: 'integer', nullable: true })
  statusCode?: number | null;

  @Property({ type: 'text', nullable: true })
  error?: string | null;

  @Property({ type: 'integer' })
  durationMs!: number;
}
