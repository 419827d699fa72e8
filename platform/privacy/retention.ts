import type pg from 'pg';
import type { Tenant } from '../auth/tenant.js';
import type { Sql } from '../db/transaction.js';
import type { Logger } from '../logger.js';
import { PeriodicSweep } from '../sweep.js';

/**
 * Retention (issue 16): how long each kind of personal data is kept, per organization and
 * environment, in days after the record holding it was made. A scheduled sweep in every service
 * removes what is past its period; the records themselves (decisions, statuses, timestamps) stay.
 */
export const RETENTION_KINDS = ['documents', 'livenessFrames', 'notificationBodies', 'providerResponses', 'eventPayloads'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** The periods of an organization that set none (docs/api/privacy.md, "Retention"). */
export const RETENTION_DEFAULT_DAYS: Record<RetentionKind, number> = {
  // identity documents and proofs of address: AML record keeping asks for five years (FATF R.11, NDPA/MLPPA, FICA)
  documents: 1825,
  // liveness photos serve the check itself
  livenessFrames: 30,
  notificationBodies: 90,
  providerResponses: 365,
  eventPayloads: 30,
};

/** A period is at least a day and at most 100 years. */
export const RETENTION_MAX_DAYS = 36_500;

const COLUMN: Record<RetentionKind, string> = {
  documents: 'documents_days',
  livenessFrames: 'liveness_frames_days',
  notificationBodies: 'notification_bodies_days',
  providerResponses: 'provider_responses_days',
  eventPayloads: 'event_payloads_days',
};

export interface RetentionPolicy {
  /** Days per kind: the organization's, or the default. */
  days: Record<RetentionKind, number>;
  /** The kinds the organization set itself (the others are defaults). */
  custom: RetentionKind[];
  updatedAt: Date | null;
  /** Every service removed what was past its period as of this moment (null until each swept once). */
  lastEnforcedAt: Date | null;
}

/** The services whose sweeps enforce a retention kind (risk keeps none of these kinds). */
export const RETENTION_SERVICES = ['verification', 'notify'] as const;

export async function readRetentionPolicy(db: Sql, tenant: Tenant): Promise<RetentionPolicy> {
  const [{ rows }, runs] = await Promise.all([
    db.query<Record<string, number | null> & { updated_at: Date }>(
      `select * from platform.retention_policies where organization_id = $1 and environment = $2`,
      [tenant.organizationId, tenant.environment],
    ),
    db.query<{ at: Date | null }>(
      `select case when count(*) = $1 then min(started_at) end as at from platform.retention_runs
        where service = any($2::text[]) and finished_at is not null`,
      [RETENTION_SERVICES.length, [...RETENTION_SERVICES]],
    ),
  ]);
  const row = rows[0];
  const days = Object.fromEntries(
    RETENTION_KINDS.map((k) => [k, row?.[COLUMN[k]] ?? RETENTION_DEFAULT_DAYS[k]]),
  ) as RetentionPolicy['days'];
  return {
    days,
    custom: RETENTION_KINDS.filter((k) => row?.[COLUMN[k]] != null),
    updatedAt: row ? new Date(row.updated_at) : null,
    lastEnforcedAt: runs.rows[0]?.at ? new Date(runs.rows[0].at) : null,
  };
}

/** Sets the given kinds' periods (null: back to the default); the others stay as they are. */
export async function updateRetentionPolicy(
  db: Sql,
  tenant: Tenant,
  changes: Partial<Record<RetentionKind, number | null>>,
): Promise<void> {
  const kinds = RETENTION_KINDS.filter((k) => changes[k] !== undefined);
  const columns = kinds.map((k) => COLUMN[k]);
  await db.query(
    `insert into platform.retention_policies (organization_id, environment${columns.map((c) => `, ${c}`).join('')})
     values ($1, $2${kinds.map((_k, i) => `, $${i + 3}::int`).join('')})
     on conflict (organization_id, environment) do update set updated_at = now()${columns.map((c) => `, ${c} = excluded.${c}`).join('')}`,
    [tenant.organizationId, tenant.environment, ...kinds.map((k) => changes[k])],
  );
}

/**
 * SQL condition: the row `alias` (with `organization_id` and `environment` columns) is past its
 * tenant's period of `kind`, counted from `alias.at`. The shortest period of any tenant bounds the
 * search first, so an index on the timestamp can serve it.
 */
export function pastRetention(kind: RetentionKind, alias: string, at: string): string {
  const column = COLUMN[kind];
  const fallback = RETENTION_DEFAULT_DAYS[kind];
  return `${alias}.${at} < now() - make_interval(days => (select least(min(${column}), ${fallback}) from platform.retention_policies))
    and ${alias}.${at} < now() - make_interval(days => coalesce(
      (select p.${column} from platform.retention_policies p where p.organization_id = ${alias}.organization_id and p.environment = ${alias}.environment),
      ${fallback}))`;
}

/** At most this many records are changed per statement: a long backlog goes in several short transactions. */
export const RETENTION_CHUNK = 500;

/**
 * Runs `purge` until it finds nothing more (each call removes at most a chunk); returns the total.
 */
export async function untilDone(purge: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await purge();
    total += n;
    if (n < RETENTION_CHUNK) return total;
  }
}

/**
 * A service's retention sweep: every `sweepMs` (and at start) it runs `purge`, which removes what is
 * past its period by kind, and records the run (`retentionPolicy.lastEnforcedAt` reads them).
 */
export class RetentionSweep {
  private readonly sweep: PeriodicSweep;

  constructor(opts: { service: string; pool: pg.Pool; logger: Logger; sweepMs: number; purge: () => Promise<Record<string, number>> }) {
    this.sweep = new PeriodicSweep({
      sweepMs: opts.sweepMs,
      logger: opts.logger,
      what: `${opts.service} retention`,
      sweep: async () => {
        const startedAt = new Date();
        const removed = await opts.purge();
        await opts.pool.query(
          `insert into platform.retention_runs (service, started_at, finished_at, removed) values ($1, $2, now(), $3)
           on conflict (service) do update set started_at = excluded.started_at, finished_at = excluded.finished_at, removed = excluded.removed`,
          [opts.service, startedAt, JSON.stringify(removed)],
        );
        return Object.values(removed).reduce((a, b) => a + b, 0);
      },
    });
  }

  start(): void {
    this.sweep.start();
  }

  stop(): Promise<void> {
    return this.sweep.stop();
  }
}

/**
 * The platform's share, run by the verification service: outbox events relayed longer ago than the
 * tenant's `eventPayloads` period are deleted; finished webhook deliveries keep their record (status,
 * attempts) without their body.
 */
export async function purgeEventPayloads(pool: pg.Pool): Promise<Record<string, number>> {
  const outboxEvents = await untilDone(async () => {
    const { rowCount } = await pool.query(
      `delete from platform.outbox_events where id in (
         select e.id from platform.outbox_events e where e.relayed_at is not null and ${pastRetention('eventPayloads', 'e', 'created_at')}
          limit ${RETENTION_CHUNK})`,
    );
    return rowCount ?? 0;
  });
  const webhookDeliveries = await untilDone(async () => {
    const { rowCount } = await pool.query(
      `update platform.deliveries set body = jsonb_build_object('event', event, 'timestamp', body::jsonb -> 'timestamp', 'data', jsonb_build_object('expired', true))::text
        where id in (
          select d.id from platform.deliveries d
           where d.status <> 'PENDING' and d.body::jsonb -> 'data' -> 'expired' is null and ${pastRetention('eventPayloads', 'd', 'created_at')}
           limit ${RETENTION_CHUNK})`,
    );
    return rowCount ?? 0;
  });
  return { outboxEvents, webhookDeliveries };
}
