import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../../platform/events/outbox.js';
import type { VerificationFlow } from './flow.entity.js';

export const FLOW_RESOURCE = 'verification_flow';

/** What subscribers and exports see: never the link's hash, the tenant or the minting key. */
export function flowSnapshot(f: VerificationFlow): Record<string, unknown> {
  const { organizationId: _o, environment: _e, linkHash: _l, clientId: _c, ...visible } = f;
  return JSON.parse(JSON.stringify(visible)) as Record<string, unknown>;
}

export function recordFlowEvent(em: EntityManager, event: string, f: VerificationFlow): void {
  recordEvent(em, {
    organizationId: f.organizationId,
    environment: f.environment,
    event,
    resourceType: FLOW_RESOURCE,
    resourceId: f.id,
    userId: f.userId,
    data: {
      flowId: f.id,
      userId: f.userId,
      steps: f.steps,
      status: f.status,
      expiresAt: f.expiresAt.toISOString(),
      ...(f.openedAt ? { openedAt: f.openedAt.toISOString() } : {}),
    },
    snapshot: flowSnapshot(f),
  });
}
