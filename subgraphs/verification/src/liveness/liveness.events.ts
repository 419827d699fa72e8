import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../../platform/events/outbox.js';
import type { LivenessSession } from './liveness.entity.js';
import { livenessRecord } from './liveness.record.js';

export const LIVENESS_RESOURCE = 'liveness_session';

const NO_RESULT = { isAlive: null, confidence: null, antiSpoofScore: null, faceMatchScore: null, failureReason: null };

/**
 * Webhook `data`: the published API's `{userId, sessionToken, isAlive, confidence, antiSpoofScore}`
 * with the session's id, status and the other decisive fields. The token is put only in events of a
 * finished session: it no longer admits submissions then.
 */
function livenessData(s: LivenessSession): Record<string, unknown> {
  const { result, challengesCompleted, challengesTotal } = livenessRecord(s);
  return {
    sessionId: s.id,
    userId: s.userId,
    ...(s.status !== 'IN_PROGRESS' && { sessionToken: s.sessionToken }),
    status: s.status,
    ...(result ?? NO_RESULT),
    challengesCompleted,
    challengesTotal,
    completedAt: s.completedAt?.toISOString() ?? null,
  };
}

export function recordLivenessEvent(em: EntityManager, event: string, s: LivenessSession): void {
  recordEvent(em, {
    organizationId: s.organizationId,
    environment: s.environment,
    event,
    resourceType: LIVENESS_RESOURCE,
    resourceId: s.id,
    userId: s.userId,
    data: livenessData(s),
    // subscriptions get the record as a client sees it: no token, no face descriptions
    snapshot: JSON.parse(JSON.stringify(livenessRecord(s))) as Record<string, unknown>,
  });
}
