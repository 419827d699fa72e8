import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEvent } from './outbox-event.entity.js';
import type { Sql } from '../db/transaction.js';
import { currentTraceparent } from '../tracing.js';

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
    traceParent: currentTraceparent(),
    createdAt,
  });
  em.persist(row);
  return row;
}

/**
 * `recordEvent` for code that writes with SQL in bulk: one multi-row INSERT in the caller's
 * transaction, the same rows (and NOTIFYs on commit) as `recordEvent` would produce.
 */
export async function insertEvents(db: Sql, events: DomainEvent[]): Promise<void> {
  if (!events.length) return;
  const timestamp = new Date().toISOString();
  const column = <T>(pick: (e: DomainEvent) => T) => events.map(pick);
  await db.query(
    `insert into platform.outbox_events (event_id, organization_id, environment, event, resource_type, resource_id, user_id, payload, snapshot, created_at, trace_parent)
     select gen_random_uuid(), o, e, ev, rt, ri, u, p, s, $9, $10
       from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::jsonb[]) as t(o, e, ev, rt, ri, u, p, s)`,
    [
      column((e) => e.organizationId),
      column((e) => e.environment),
      column((e) => e.event),
      column((e) => e.resourceType),
      column((e) => e.resourceId),
      column((e) => e.userId ?? null),
      column((e) => JSON.stringify({ event: e.event, timestamp, data: e.data })),
      column((e) => JSON.stringify(e.snapshot)),
      timestamp,
      currentTraceparent(),
    ],
  );
}

/** An event of a row being inserted by the same statement (`insertWithEvent`). */
export interface RowEvent {
  event: string;
  resourceType: string;
  userId?: string | null;
  timestamp: Date;
  data: Record<string, unknown>;
  /** The snapshot, or its JSON text (a hot path that has it already). */
  snapshot: Record<string, unknown> | string;
}

export interface Statement {
  text: string;
  values: unknown[];
}

/**
 * One statement that inserts a resource row and its event, for hot paths where a second round
 * trip costs (risk evaluations, AML screenings). `insert` must end with `returning id,
 * organization_id, environment, created_at`; its values come first, the event's after them, then
 * those of `alongside`: another write of the same statement (e.g. the resource's child rows),
 * whose placeholders start at the number it is given.
 */
export function insertWithEvent(insert: Statement, e: RowEvent, alongside?: (firstPlaceholder: number) => Statement): Statement {
  const n = insert.values.length;
  const also = alongside?.(n + 8);
  return {
    text: `with resource as (${insert.text})${also ? `, alongside as (${also.text})` : ''}
     insert into platform.outbox_events (event_id, organization_id, environment, event, resource_type, resource_id, user_id, payload, snapshot, created_at, trace_parent)
     select $${n + 1}, organization_id, environment, $${n + 2}, $${n + 3}, id::text, $${n + 4}, $${n + 5}, $${n + 6}, created_at, $${n + 7} from resource`,
    values: [
      ...insert.values,
      randomUUID(),
      e.event,
      e.resourceType,
      e.userId ?? null,
      JSON.stringify({ event: e.event, timestamp: e.timestamp.toISOString(), data: e.data }),
      typeof e.snapshot === 'string' ? e.snapshot : JSON.stringify(e.snapshot),
      currentTraceparent(),
      ...(also?.values ?? []),
    ],
  };
}
