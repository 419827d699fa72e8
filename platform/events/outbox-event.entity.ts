import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** One status change, written in the transaction that made it (see the migration's trigger). */
@Entity({ schema: 'platform', tableName: 'outbox_events' })
export class OutboxEvent {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id?: string;

  @Property({ type: 'uuid' })
  eventId!: string;

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  event!: string;

  @Property({ type: 'text' })
  resourceType!: string;

  @Property({ type: 'text' })
  resourceId!: string;

  @Property({ type: 'text', nullable: true })
  userId?: string | null;

  /** The webhook envelope `{event, timestamp, data}`. */
  @Property({ type: 'json' })
  payload!: { event: string; timestamp: string; data: Record<string, unknown> };

  /** The resource as subscriptions show it, at the moment of the change. */
  @Property({ type: 'json' })
  snapshot!: Record<string, unknown>;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  /** The W3C traceparent of the request that made it (null when not tracing): its deliveries continue that trace. */
  @Property({ type: 'text', nullable: true })
  traceParent?: string | null;

  @Property({ type: 'datetime', nullable: true })
  relayedAt?: Date | null;
}
