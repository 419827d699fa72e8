import type { EntityManager } from '@mikro-orm/postgresql';
import type { CapabilityDeps } from '../../../../platform/capability.js';
import { ErasureWorker } from '../../../../platform/privacy/erasure.worker.js';
import { together } from '../../../../platform/sweep.js';
import { purgeEventPayloads, RetentionSweep } from '../../../../platform/privacy/retention.js';
import type { VerificationShared } from '../verification.shared.js';
import { eraseVerificationPart, type PrivacyDeps } from './privacy.service.js';

/**
 * Verification's background privacy work: its part of every erasure (ErasureWorker, woken by the
 * erasure events) and its retention sweep (every capability's, then the platform's event payloads).
 */
export function privacyWorkers(deps: VerificationShared & CapabilityDeps & PrivacyDeps) {
  const logger = deps.logger.child({ component: 'privacy' });
  const erasures = new ErasureWorker<EntityManager>({
    service: 'verification',
    pool: deps.pool,
    events: deps.events,
    logger,
    sweepMs: deps.config.PRIVACY_SWEEP_MS,
    transaction: (work) => deps.orm.em.fork().transactional(work),
    erase: (em, request) => eraseVerificationPart(em, request, deps),
  });
  const retention = new RetentionSweep({
    service: 'verification',
    pool: deps.pool,
    logger,
    sweepMs: deps.config.RETENTION_SWEEP_MS,
    purge: async () => ({ ...(await deps.retention()), ...(await purgeEventPayloads(deps.pool)) }),
  });
  return together(erasures, retention);
}
