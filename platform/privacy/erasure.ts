import { randomUUID } from 'node:crypto';
import type { Tenant } from '../auth/tenant.js';
import type { ServiceName } from '../auth/principal.js';
import type { Sql } from '../db/transaction.js';
import { insertEvents } from '../events/outbox.js';
import { Lifecycle } from '../lifecycle.js';
import { isUuid } from '../ids.js';
import { keysetConnection } from '../graphql/keyset.js';
import type { Connection, ConnectionArgs } from '../graphql/connection.js';
import { exported } from './personal-data.js';

/**
 * Erasure of a user's personal data across the services (issue 16). A request is one row of
 * `platform.user_erasures`, committed with its outbox event; each service's `ErasureWorker` erases
 * its part and reports in `services`; the last report completes the request (`user.erased`).
 */
export const USER_ERASURE_RESOURCE = 'user_erasure';

/** Every service holds part of a user: each must report before the request completes. */
export const ERASURE_SERVICES = ['verification', 'risk', 'notify'] as const satisfies readonly ServiceName[];
export type ErasureService = (typeof ERASURE_SERVICES)[number];

export const ERASURE_STATUSES = ['PENDING', 'COMPLETED'] as const;
export type ErasureStatus = (typeof ERASURE_STATUSES)[number];

export const USER_ERASURE_EVENTS = {
  requested: 'user_erasure.requested',
  progressed: 'user_erasure.progressed',
  erased: 'user.erased',
} as const;

export const ERASURE_LIFECYCLE = new Lifecycle<ErasureStatus, 'requested' | 'part.completed' | 'completed'>(
  'a user erasure',
  ERASURE_STATUSES,
  [
    { from: [null], trigger: 'requested', to: 'PENDING', event: USER_ERASURE_EVENTS.requested },
    { from: ['PENDING'], trigger: 'part.completed', to: null, event: USER_ERASURE_EVENTS.progressed },
    { from: ['PENDING'], trigger: 'completed', to: 'COMPLETED', event: USER_ERASURE_EVENTS.erased },
  ],
);

/** One service's part of an erasure. */
export interface ErasurePart {
  status: ErasureStatus;
  completedAt: string | null;
  /** Records erased or anonymised, by kind (`documents: 2`). */
  erased: Record<string, number>;
  attempts: number;
  /** A failed attempt is retried from then on. */
  retryAt: string | null;
  lastError: string | null;
}

/**
 * What the request knew of the user when it was made, to find their records elsewhere: the phone
 * numbers and email addresses verification holds (notify finds the messages sent to them) and the
 * notifications it sent. Cleared when the erasure completes.
 */
export interface ErasureSubject {
  addresses: string[];
  notificationIds: string[];
}

/** An erasure as clients read it (GraphQL, REST, events). */
export interface UserErasureView {
  id: string;
  organizationId: string;
  environment: string;
  userId: string;
  status: ErasureStatus;
  services: Array<{ service: ErasureService } & ErasurePart>;
  requestedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

/** What a service's worker gets to erase its part. */
export interface ErasureRequest {
  id: string;
  organizationId: string;
  environment: string;
  userId: string;
  /** What the records an erasure keeps carry instead of the user id (the same in every service). */
  pseudonym: string;
  subject: ErasureSubject;
}

interface Row {
  id: string;
  organization_id: string;
  environment: string;
  user_id: string;
  status: ErasureStatus;
  services: Record<ErasureService, ErasurePart>;
  subject: ErasureSubject | null;
  pseudonym: string | null;
  requested_by: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

const pending = (): ErasurePart => ({ status: 'PENDING', completedAt: null, erased: {}, attempts: 0, retryAt: null, lastError: null });

export function erasureView(r: Row): UserErasureView {
  return {
    id: r.id,
    organizationId: r.organization_id,
    environment: r.environment,
    userId: r.user_id,
    status: r.status,
    services: ERASURE_SERVICES.map((service) => ({ service, ...(r.services[service] ?? pending()) })),
    requestedBy: r.requested_by,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    completedAt: r.completed_at ? new Date(r.completed_at) : null,
  };
}

/** Webhook `data` of `user.erased` (and the other events): which user, when, what each service erased. */
function erasureData(v: UserErasureView): Record<string, unknown> {
  return {
    erasureId: v.id,
    userId: v.userId,
    status: v.status,
    requestedAt: v.createdAt.toISOString(),
    completedAt: v.completedAt?.toISOString() ?? null,
    services: Object.fromEntries(v.services.map((s) => [s.service, { status: s.status, completedAt: s.completedAt, erased: s.erased }])),
  };
}

function recordErasureEvent(db: Sql, event: string, v: UserErasureView): Promise<void> {
  return insertEvents(db, [
    {
      organizationId: v.organizationId,
      environment: v.environment,
      event,
      resourceType: USER_ERASURE_RESOURCE,
      resourceId: v.id,
      userId: v.userId,
      data: erasureData(v),
      snapshot: exported(v),
    },
  ]);
}

/**
 * Records an erasure request and its event in the caller's transaction; a user with one pending
 * already gets that one (`created: false`), also under concurrent requests.
 */
export async function requestErasure(
  db: Sql,
  tenant: Tenant,
  request: { userId: string; requestedBy: string | null; subject: ErasureSubject },
): Promise<{ created: boolean; erasure: UserErasureView }> {
  const { status, event } = ERASURE_LIFECYCLE.fire(null, 'requested');
  const { rows } = await db.query<Row>(
    `insert into platform.user_erasures (id, organization_id, environment, user_id, status, services, subject, pseudonym, requested_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     on conflict (organization_id, environment, user_id) where status = 'PENDING' do nothing
     returning *`,
    [
      randomUUID(),
      tenant.organizationId,
      tenant.environment,
      request.userId,
      status,
      JSON.stringify(Object.fromEntries(ERASURE_SERVICES.map((s) => [s, pending()]))),
      JSON.stringify(request.subject),
      `erased:${randomUUID()}`,
      request.requestedBy,
    ],
  );
  if (rows[0]) {
    const erasure = erasureView(rows[0]);
    await recordErasureEvent(db, event, erasure);
    return { created: true, erasure };
  }
  const existing = await db.query<Row>(
    `select * from platform.user_erasures where organization_id = $1 and environment = $2 and user_id = $3 and status = 'PENDING'`,
    [tenant.organizationId, tenant.environment, request.userId],
  );
  // the pending one completed between the two statements: ask again
  if (!existing.rows[0]) return requestErasure(db, tenant, request);
  return { created: false, erasure: erasureView(existing.rows[0]) };
}

export async function findErasure(db: Sql, tenant: Tenant, id: string): Promise<UserErasureView | null> {
  if (!isUuid(id)) return null;
  const { rows } = await db.query<Row>(`select * from platform.user_erasures where id = $1 and organization_id = $2 and environment = $3`, [
    id,
    tenant.organizationId,
    tenant.environment,
  ]);
  return rows[0] ? erasureView(rows[0]) : null;
}

/** The tenant's erasures (of one user, in one status), newest first. */
export function listErasures(
  db: Sql,
  tenant: Tenant,
  filter: { userId?: string | null; status?: ErasureStatus | null },
  page: ConnectionArgs,
): Promise<Connection<UserErasureView>> {
  const values: unknown[] = [tenant.organizationId, tenant.environment];
  const where = ['e.organization_id = $1', 'e.environment = $2'];
  if (filter.userId != null) where.push(`e.user_id = $${values.push(filter.userId)}`);
  if (filter.status != null) where.push(`e.status = $${values.push(filter.status)}`);
  return keysetConnection<Row, UserErasureView>(
    db,
    {
      from: 'platform.user_erasures e',
      where,
      values,
      key: ['e.created_at', 'e.id'],
      descending: true,
      keyOf: (param) => `select created_at, id from platform.user_erasures where id = ${param}::uuid`,
      isId: isUuid,
      select: 'e.*',
    },
    page,
    (rows) => rows.map(erasureView),
  );
}

/**
 * Claims the oldest pending erasure whose part of `service` is due, locked for the caller's
 * transaction (other workers skip it); null when none is.
 */
export async function claimErasurePart(db: Sql, service: ErasureService): Promise<ErasureRequest | null> {
  const { rows } = await db.query<Row>(
    `select * from platform.user_erasures
      where status = 'PENDING' and services -> $1::text ->> 'status' = 'PENDING'
        and coalesce((services -> $1::text ->> 'retryAt')::timestamptz, '-infinity') <= now()
      order by created_at limit 1 for update skip locked`,
    [service],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    organizationId: r.organization_id,
    environment: r.environment,
    userId: r.user_id,
    pseudonym: r.pseudonym!,
    subject: r.subject ?? { addresses: [], notificationIds: [] },
  };
}

/**
 * Reports `service`'s part done (in the transaction that claimed it and erased); the last report
 * completes the request: its subject and pseudonym are forgotten and `user.erased` is recorded.
 */
export async function completeErasurePart(
  db: Sql,
  request: ErasureRequest,
  service: ErasureService,
  erased: Record<string, number>,
): Promise<UserErasureView> {
  const part: ErasurePart = { ...pending(), status: 'COMPLETED', completedAt: new Date().toISOString(), erased };
  const { rows } = await db.query<Row>(
    `update platform.user_erasures set services = jsonb_set(services, array[$2::text], $3::jsonb), updated_at = now()
      where id = $1 returning *`,
    [request.id, service, JSON.stringify(part)],
  );
  const done = await db.query<Row>(
    `update platform.user_erasures set status = $2, completed_at = now(), subject = null, pseudonym = null
      where id = $1 and status = any($3::text[])
        and not exists (select 1 from jsonb_each(services) s where s.value ->> 'status' <> 'COMPLETED')
      returning *`,
    [request.id, ERASURE_LIFECYCLE.target('completed'), ERASURE_LIFECYCLE.sources('completed')],
  );
  const view = erasureView(done.rows[0] ?? rows[0]);
  await recordErasureEvent(db, done.rows[0] ? USER_ERASURE_EVENTS.erased : USER_ERASURE_EVENTS.progressed, view);
  return view;
}

/** A failed attempt: retried after a delay that doubles (10 s … 1 h); the error is kept for operators. */
export async function failErasurePart(db: Sql, requestId: string, service: ErasureService, error: string): Promise<void> {
  await db.query(
    `update platform.user_erasures
        set services = jsonb_set(services, array[$2::text], services -> $2::text || jsonb_build_object(
              'attempts', coalesce((services -> $2::text ->> 'attempts')::int, 0) + 1,
              'retryAt', now() + least(interval '1 hour', interval '10 seconds' * power(2, coalesce((services -> $2::text ->> 'attempts')::int, 0))),
              'lastError', left($3::text, 500))),
            updated_at = now()
      where id = $1 and status = 'PENDING'`,
    [requestId, service, error],
  );
}
