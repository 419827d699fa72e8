import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../../../platform/db/orm.js';
import type { ServiceRuntime } from '../../../../platform/service-module.js';
import { ErasureWorker } from '../../../../platform/privacy/erasure.worker.js';
import { together } from '../../../../platform/sweep.js';
import { purgeEventPayloads, RetentionSweep } from '../../../../platform/privacy/retention.js';
import { AddressService } from '../address/address.service.js';
import { BusinessService } from '../business/business.service.js';
import { DocumentService } from '../document/document.service.js';
import { LivenessService } from '../liveness/liveness.service.js';
import { MobileMoneyService } from '../mobile-money/mobile-money.service.js';
import { eraseVerificationPart, type PrivacyDeps } from './privacy.service.js';

/**
 * Verification's background privacy work: its part of every erasure (ErasureWorker, woken by the
 * erasure events) and its retention sweep, which also enforces the platform's event payloads.
 */
export function privacyWorkers(opts: { rt: ServiceRuntime; orm: Orm; deps: PrivacyDeps }) {
  const { rt, orm, deps } = opts;
  const logger = rt.logger.child({ component: 'privacy' });
  const erasures = new ErasureWorker<EntityManager>({
    service: 'verification',
    pool: rt.pool,
    events: rt.events,
    logger,
    sweepMs: rt.config.PRIVACY_SWEEP_MS,
    transaction: (work) => orm.em.fork().transactional(work),
    erase: (em, request) => eraseVerificationPart(em, request, deps),
  });
  const retention = new RetentionSweep({
    service: 'verification',
    pool: rt.pool,
    logger,
    sweepMs: rt.config.RETENTION_SWEEP_MS,
    purge: async () => ({
      documentImages: await DocumentService.expireImages(rt.pool, deps.files),
      addressDocuments: await AddressService.expireDocuments(rt.pool, deps.files),
      livenessPhotos: await LivenessService.expirePhotos(orm, deps.files),
      registryAnswers: await BusinessService.expireRegistryAnswers(rt.pool),
      operatorAnswers: await MobileMoneyService.expireOperatorAnswers(rt.pool),
      ...(await purgeEventPayloads(rt.pool)),
    }),
  });
  return together(erasures, retention);
}
