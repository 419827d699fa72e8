import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent, type DomainEvent } from '../../../../platform/events/outbox.js';
import type { DeliveryStatus } from '../../../../platform/delivery/delivery.lifecycle.js';
import type { AmlBatch, AmlHit, AmlScreening } from './aml.entity.js';

export const AML_RESOURCE = 'aml_screening';
export const AML_BATCH_RESOURCE = 'aml_batch';

/** The screening as subscribers see it (no tenant columns), with its matches. */
export function amlSnapshot(s: AmlScreening, hits: AmlHit[]): Record<string, unknown> {
  const { organizationId: _o, environment: _e, ...visible } = s;
  return JSON.parse(JSON.stringify({ ...visible, matches: hits }));
}

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
