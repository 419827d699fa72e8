import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEvent } from './outbox-event.entity.js';

export interface DomainEvent {
  organizationId: string;
  environment: string;
  event: string;
  resourceType: string;
  resourceId: string;
  userId?: string | null;
  data: Record<string, unknown>;
  snapshot: Record<string, unknown>;
}

/**
 * Queues an event in the caller's unit of work: it is committed by the same flush as the status
 * change it reports, or not at all.
 */
export function recordEvent(em: EntityManager, e: DomainEvent): OutboxEvent {
  const createdAt = new Date();
  const row = em.create(OutboxEvent, {
    eventId: randomUUID(),
    organizationId: e.organizationId,
    environment: e.environment,
    event: e.event,
    resourceType: e.resourceType,
    resourceId: e.resourceId,
    userId: e.userId ?? null,
    payload: { event: e.event, timestamp: createdAt.toISOString(), data: e.data },
    snapshot: e.snapshot,
    createdAt,
  });
  em.persist(row);
  return row;
}
