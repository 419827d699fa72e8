import type { Tenant } from '../auth/tenant.js';
import type { Sql } from '../db/transaction.js';
import { WEBHOOK_DELIVERY_RESOURCE } from '../delivery/delivery.events.js';
import { USER_ERASURE_EVENTS, USER_ERASURE_RESOURCE } from './erasure.js';

/** What an event says once its data is gone: its name, when, and that it was erased. */
const BARE_DATA = `jsonb_build_object('erased', true)`;
const BARE_SNAPSHOT = `'{"erased": true}'::jsonb`;

/** Which events name what an erasure removes. */
export interface ScrubbedEvents {
  /** Every event tagged with this user (their records' events), or naming them anywhere in its data. */
  userId?: string;
  /** Events of these records (records of others that were sent to the user, records without a user id). */
  resources?: { type: string; ids: string[] };
  /** Webhook deliveries whose `data[key]` is one of `values` (their outbox rows may be pruned already). */
  deliveryData?: { key: string; values: string[] };
}

/**
 * Replaces the payloads and snapshots of the outbox events that name an erased user's records, and
 * the bodies of the webhook deliveries made of them (and the delivery events that copy those
 * bodies), by the bare event: a redelivery sends nothing personal again. The erasure's own events
 * are left as they are. Returns how many events and deliveries were scrubbed.
 */
export async function scrubEvents(db: Sql, tenant: Tenant, match: ScrubbedEvents): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `with events as (
       update platform.outbox_events e
          set payload = jsonb_build_object('event', e.event, 'timestamp', e.payload -> 'timestamp', 'data', ${BARE_DATA}),
              snapshot = ${BARE_SNAPSHOT}, user_id = null
        where e.organization_id = $1 and e.environment = $2 and e.resource_type <> '${USER_ERASURE_RESOURCE}'
          and (e.user_id = $3 or e.payload::text like $8 or e.snapshot::text like $8 or (e.resource_type = $4 and e.resource_id = any($5::text[])))
        returning e.event_id),
     deliveries as (
       update platform.deliveries d
          set body = jsonb_build_object('event', d.event, 'timestamp', d.body::jsonb -> 'timestamp', 'data', ${BARE_DATA})::text
        where d.organization_id = $1 and d.environment = $2 and d.webhook_id is not null
          and d.event <> '${USER_ERASURE_EVENTS.erased}' and d.body::jsonb -> 'data' -> 'erased' is null
          and (d.event_id in (select event_id from events)
               or d.body like $8
               or d.body::jsonb -> 'data' ->> $6::text = any($7::text[]))
        returning d.id),
     -- a delivery's own events copy its body (run even though unread: PostgreSQL runs every writing CTE)
     copies as (
       update platform.outbox_events c set snapshot = ${BARE_SNAPSHOT}
        where c.organization_id = $1 and c.environment = $2 and c.resource_type = '${WEBHOOK_DELIVERY_RESOURCE}'
          and c.resource_id in (select id::text from deliveries)
        returning 1)
     select ((select count(*) from events) + (select count(*) from deliveries))::int as n`,
    [
      tenant.organizationId,
      tenant.environment,
      match.userId ?? null,
      match.resources?.type ?? null,
      match.resources?.ids ?? [],
      match.deliveryData?.key ?? null,
      match.deliveryData?.values ?? [],
      // the user id as a JSON string anywhere (another user's record naming them: a duplicate face's match)
      match.userId ? `%${JSON.stringify(match.userId).replace(/[%_\\]/g, '\\$&')}%` : null,
    ],
  );
  return rows[0]?.n ?? 0;
}
