import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../../platform/events/outbox.js';
import type { DocumentVerification } from './document.entity.js';

export const DOCUMENT_RESOURCE = 'document_verification';

export function documentSnapshot(d: DocumentVerification): Record<string, unknown> {
  const {
    organizationId: _o,
    environment: _e,
    faceEmbedding: _f,
    faceEmbeddingSealed: _fs,
    extractedDataSealed: _es,
    documentNumberIndex: _n,
    fullNameKey: _k,
    ...visible
  } = d;
  return JSON.parse(JSON.stringify(visible)) as Record<string, unknown>;
}

/** Webhook `data`: the published fields of document.verified, the same pattern for the others. */
function documentData(d: DocumentVerification): Record<string, unknown> {
  return {
    verificationId: d.id,
    userId: d.userId,
    documentType: d.documentType,
    documentCountry: d.documentCountry,
    status: d.status,
    confidence: d.confidence ?? null,
    extractedFields: d.extractedData ? { fullName: d.extractedData.fullName, documentNumber: d.extractedData.documentNumber } : null,
    ...(d.reasons.length ? { reasons: d.reasons } : {}),
    ...(d.verifiedAt ? { verifiedAt: d.verifiedAt.toISOString() } : {}),
    ...(d.reviewedBy ? { reviewedBy: d.reviewedBy, reviewedAt: d.reviewedAt?.toISOString() } : {}),
  };
}

export function recordDocumentEvent(em: EntityManager, event: string, d: DocumentVerification): void {
  recordEvent(em, {
    organizationId: d.organizationId,
    environment: d.environment,
    event,
    resourceType: DOCUMENT_RESOURCE,
    resourceId: d.id,
    userId: d.userId,
    data: documentData(d),
    snapshot: documentSnapshot(d),
  });
}
