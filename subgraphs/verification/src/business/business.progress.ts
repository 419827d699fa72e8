import type { EntityManager } from '@mikro-orm/postgresql';
import { businessProgress, type BusinessFacts, type RegistryFact } from './business-rules.js';
import type { BusinessVerification } from './business.entity.js';
import { recordBusinessEvent, type BusinessView } from './business.events.js';
import { BUSINESS_LIFECYCLE, type BusinessStatus, type BusinessTrigger } from './business.lifecycle.js';

/** The automatic move into each status the rules can reach. */
const TRIGGER_OF: Record<BusinessStatus, BusinessTrigger | null> = {
  PENDING: null,
  PROCESSING: 'data.complete',
  VERIFIED: 'checks.verified',
  REJECTED: 'checks.rejected',
  MANUAL_REVIEW: 'checks.flagged',
};

function registryFact(b: BusinessVerification): RegistryFact {
  switch (b.registryOutcome) {
    case 'PENDING':
      return { outcome: 'PENDING' };
    case 'NOT_FOUND':
      return { outcome: 'NOT_FOUND' };
    case 'UNAVAILABLE':
      return { outcome: 'UNAVAILABLE', retrying: b.registryRetryAt != null };
    default:
      return { outcome: 'FOUND', legalName: b.registryData?.legalName ?? '', status: b.registryData?.status ?? null };
  }
}

export function factsOf({ business, people }: BusinessView): BusinessFacts {
  return {
    declaredName: business.businessName ?? '',
    registry: registryFact(business),
    directors: people.filter((p) => p.kind === 'DIRECTOR').length,
    ubos: people.filter((p) => p.kind === 'UBO').length,
    screenings: people.map((p) => p.screeningStatus),
  };
}

/**
 * Applies the rules (business-rules.ts) to a business whose row the caller holds locked, in the
 * caller's transaction: its steps and reasons, and the lifecycle's move with its event. `changed`:
 * something was recorded (people declared, a registry answer) that subscribers should see even
 * when neither the steps nor the status moved.
 */
export async function applyProgress(em: EntityManager, view: BusinessView, changed: boolean): Promise<void> {
  const b = view.business;
  const progress = businessProgress(factsOf(view));
  const stepsMoved =
    JSON.stringify(progress.steps) !== JSON.stringify(b.steps) || JSON.stringify(progress.reasons) !== JSON.stringify(b.reasons);
  b.steps = progress.steps;
  b.reasons = progress.reasons;
  const wanted = progress.status === b.status ? null : TRIGGER_OF[progress.status];
  // a declaration made after the checks decided moves the status only where the table allows (VERIFIED → MANUAL_REVIEW)
  const trigger = wanted && BUSINESS_LIFECYCLE.allows(b.status, wanted) ? wanted : null;
  if (!trigger) {
    await em.flush();
    if (changed || stepsMoved) recordBusinessEvent(em, BUSINESS_LIFECYCLE.fire(b.status, 'updated').event, view);
    return;
  }
  const { status, event } = BUSINESS_LIFECYCLE.fire(b.status, trigger);
  b.status = status;
  b.completedAt = status === 'VERIFIED' || status === 'REJECTED' ? new Date() : null;
  await em.flush();
  recordBusinessEvent(em, event, view);
}
