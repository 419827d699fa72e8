import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { DeliveryStatus } from './delivery.lifecycle.js';

/** An organization's subscription to events: every matching outbox event becomes a delivery to its URL. */
@Entity({ schema: 'platform', tableName: 'webhooks' })
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

/**
 * One signed POST to make, with its schedule: an event for a webhook, or a callback a capability
 * asked for (an AML batch's). The row is its own queue: it is due while PENDING and
 * `nextAttemptAt` has passed; a worker claims it for the timeout plus a margin.
 */
@Entity({ schema: 'platform', tableName: 'deliveries' })
export class Delivery {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  /** Set for webhook deliveries: the webhook's secret signs them, and a deactivated one stops them. */
  @Property({ type: 'uuid', nullable: true })
  webhookId?: string | null;

  /** Set for callbacks: the resource that asked for it (`aml_batch` + id), told of every outcome. */
  @Property({ type: 'text', nullable: true })
  ownerType?: string | null;

  @Property({ type: 'text', nullable: true })
  ownerId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  eventId?: string | null;

  @Property({ type: 'text' })
  event!: string;

  @Property({ type: 'text' })
  url!: string;

  /** Standard Webhooks `webhook-id` (the same on every retry); `msg_<id>` when absent. */
  @Property({ type: 'text', nullable: true })
  messageId?: string | null;

  /** A callback's own signing secret (webhook deliveries use their webhook's). */
  @Property({ type: 'text', nullable: true, hidden: true })
  secret?: string | null;

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

  @Property({ type: 'integer', nullable: true })
  lastStatusCode?: number | null;

  @Property({ type: 'text', nullable: true })
  lastError?: string | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();
}

@Entity({ schema: 'platform', tableName: 'delivery_attempts' })
export class DeliveryAttempt {
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
