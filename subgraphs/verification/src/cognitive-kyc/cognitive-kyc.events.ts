import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../../platform/events/outbox.js';
import type { CognitiveKycCheck } from './cognitive-kyc.entity.js';

export const COGNITIVE_KYC_RESOURCE = 'cognitive_kyc_check';

export function cognitiveKycSnapshot(c: CognitiveKycCheck): Record<string, unknown> {
  const {
    organizationId: _o,
    environment: _e,
    selfieEmbedding: _s,
    selfieEmbeddingSealed: _ss,
    documentFieldsSealed: _ds,
    documentNumberIndex: _n,
    fullNameKey: _k,
    ...visible
  } = c;
  return JSON.parse(JSON.stringify(visible)) as Record<string, unknown>;
}

/** Webhook `data`: the resource id, the user, the decision and the fields it rests on (the published events' pattern). */
function cognitiveKycData(c: CognitiveKycCheck): Record<string, unknown> {
  return {
    verificationId: c.id,
    userId: c.userId,
    decision: c.decision,
    confidence: c.confidence,
    faceMatchScore: c.faceMatchScore ?? null,
    fraudIndicators: c.fraudIndicators,
    riskLevel: c.riskLevel,
    documentFields: { fullName: c.documentFields.fullName, documentNumber: c.documentFields.documentNumber },
    ...(c.reasons.length ? { reasons: c.reasons } : {}),
    ...(c.reviewedBy ? { reviewedBy: c.reviewedBy, reviewedAt: c.reviewedAt?.toISOString() } : {}),
  };
}

export function recordCognitiveKycEvent(em: EntityManager, event: string, c: CognitiveKycCheck): void {
  recordEvent(em, {
    organizationId: c.organizationId,
    environment: c.environment,
    event,
    resourceType: COGNITIVE_KYC_RESOURCE,
    resourceId: c.id,
    userId: c.userId,
    data: cognitiveKycData(c),
    snapshot: cognitiveKycSnapshot(c),
  });
}
