import type { EntityManager } from '@mikro-orm/postgresql';
import { insertWithEvent, recordEvent, type DomainEvent } from '../../../../platform/events/outbox.js';
import type { Keyring } from '../../../../platform/crypto/keyring.js';
import type { Sql } from '../../../../platform/db/transaction.js';
import type { DeliveryStatus } from '../../../../platform/delivery/delivery.lifecycle.js';
import type { AmlBatch, AmlHit, AmlScreening } from './aml.entity.js';

export const AML_RESOURCE = 'aml_screening';
export const AML_BATCH_RESOURCE = 'aml_batch';

/** The screening as subscribers see it (no tenant columns), with its matches. */
export function amlSnapshot(s: AmlScreening, hits: AmlHit[]): Record<string, unknown> {
  return JSON.parse(amlSnapshotJson(s, hits));
}

const amlSnapshotJson = (s: AmlScreening, hits: AmlHit[]): string => {
  const { organizationId: _o, environment: _e, ...visible } = s;
  return JSON.stringify({ ...visible, matches: hits });
};

/** Webhook `data`: resource id, user, status and the decisive fields. */
function amlData(s: AmlScreening, hits: AmlHit[]): Record<string, unknown> {
  return {
    screeningId: s.id,
    userId: s.userId,
    status: s.status,
    riskLevel: s.riskLevel,
    matchCount: s.matchCount,
    topScore: hits.length ? Math.max(...hits.map((h) => h.score)) : null,
    listsChecked: s.listsChecked,
    checkedAt: s.checkedAt.toISOString(),
    ...(s.batchId ? { batchId: s.batchId } : {}),
    ...(s.resolvedAt ? { resolvedAt: s.resolvedAt.toISOString() } : {}),
  };
}

export function recordAmlEvent(em: EntityManager, event: string, s: AmlScreening, hits: AmlHit[]): void {
  recordEvent(em, {
    organizationId: s.organizationId,
    environment: s.environment,
    event,
    resourceType: AML_RESOURCE,
    resourceId: s.id,
    userId: s.userId,
    data: amlData(s, hits),
    snapshot: amlSnapshot(s, hits),
  });
}

/**
 * The screening, its matches and its event written in ONE statement (one round trip and one
 * commit, where the unit of work takes begin, three inserts and commit): POST /screening/aml's hot
 * path. The date of birth is sealed here, as `sealedEntity` declares it for the ORM's writes.
 */
export async function insertScreening(db: Sql, keyring: Keyring, event: string, s: AmlScreening, hits: AmlHit[]): Promise<void> {
  const dateOfBirthSealed = s.dateOfBirth == null ? null : await keyring.seal(s.organizationId, JSON.stringify(s.dateOfBirth));
  const insert = {
    text: `insert into verification.aml_screenings (id, organization_id, environment, user_id, full_name, date_of_birth_sealed, nationality,
         document_number, match_threshold, lists, status, risk_level, match_count, lists_checked, list_versions, batch_id, checked_at,
         created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
       returning id, organization_id, environment, created_at`,
    values: [
      s.id,
      s.organizationId,
      s.environment,
      s.userId,
      s.fullName ?? null,
      dateOfBirthSealed,
      s.nationality ?? null,
      s.documentNumber ?? null,
      s.matchThreshold,
      JSON.stringify(s.lists),
      s.status,
      s.riskLevel,
      s.matchCount,
      JSON.stringify(s.listsChecked),
      JSON.stringify(s.listVersions),
      s.batchId ?? null,
      s.checkedAt,
      s.createdAt,
      s.updatedAt,
    ],
  };
  const matches = (first: number) => ({
    text: `insert into verification.aml_hits (id, screening_id, position, source, kind, external_id, entity_type, primary_name, matched_name,
         score, explanation, programs, added_date, list_version, resolution)
       select * from jsonb_to_recordset($${first}::jsonb) as h(id uuid, "screeningId" uuid, position int, source text, kind text,
         "externalId" text, "entityType" text, "primaryName" text, "matchedName" text, score float8, explanation jsonb, programs jsonb,
         "addedDate" text, "listVersion" text, resolution text)`,
    values: [JSON.stringify(hits)],
  });
  const statement = insertWithEvent(
    insert,
    {
      event,
      resourceType: AML_RESOURCE,
      userId: s.userId,
      timestamp: s.createdAt,
      data: amlData(s, hits),
      snapshot: amlSnapshotJson(s, hits),
    },
    hits.length ? matches : undefined,
  );
  await db.query(statement.text, statement.values);
}

/** Where the batch's callback stands (from its delivery; nothing before the batch completes). */
export interface CallbackState {
  callbackStatus: DeliveryStatus | null;
  callbackAttempts: number;
  callbackLastStatusCode: number | null;
  callbackLastError: string | null;
  callbackDeliveredAt: Date | null;
  callbackNextAttemptAt: Date | null;
}

export type AmlBatchView = AmlBatch & CallbackState;

export function callbackState(
  d: {
    status: DeliveryStatus;
    attemptCount: number;
    lastStatusCode?: number | null;
    lastError?: string | null;
    deliveredAt?: Date | null;
    nextAttemptAt?: Date | null;
  } | null,
): CallbackState {
  return {
    callbackStatus: d?.status ?? null,
    callbackAttempts: d?.attemptCount ?? 0,
    callbackLastStatusCode: d?.lastStatusCode ?? null,
    callbackLastError: d?.lastError ?? null,
    callbackDeliveredAt: d?.deliveredAt ?? null,
    callbackNextAttemptAt: d?.nextAttemptAt ?? null,
  };
}

/** The batch with its callback's state, as the API shows it. */
export const withCallback = (b: AmlBatch, delivery: Parameters<typeof callbackState>[0]): AmlBatchView =>
  ({ ...b, ...callbackState(delivery) }) as AmlBatchView;

export function batchSnapshot(b: AmlBatchView): Record<string, unknown> {
  const { organizationId: _o, environment: _e, callbackSecret: _s, callbackDeliveryId: _d, ...visible } = b;
  return JSON.parse(JSON.stringify(visible));
}

export interface BatchResult {
  position: number;
  userId: string;
  screeningId: string | null;
  /** PENDING, FAILED or the screening's status */
  status: string;
  riskLevel: string | null;
  matchCount: number | null;
  error: string | null;
}

/** `aml.batch_complete` data (also the callback's): the batch counts and one line per subject. */
export function batchCompleteData(b: AmlBatch, results: BatchResult[]): Record<string, unknown> {
  return {
    batchId: b.id,
    status: b.status,
    total: b.total,
    processed: b.processed,
    clear: b.clearCount,
    flagged: b.flaggedCount,
    failed: b.failedCount,
    completedAt: b.completedAt?.toISOString() ?? null,
    results,
  };
}

export function batchEvent(event: string, b: AmlBatchView, data: Record<string, unknown>): DomainEvent {
  return {
    organizationId: b.organizationId,
    environment: b.environment,
    event,
    resourceType: AML_BATCH_RESOURCE,
    resourceId: b.id,
    data,
    snapshot: batchSnapshot(b),
  };
}

export function recordBatchEvent(em: EntityManager, event: string, b: AmlBatchView, data: Record<string, unknown>): void {
  recordEvent(em, batchEvent(event, b, data));
}
