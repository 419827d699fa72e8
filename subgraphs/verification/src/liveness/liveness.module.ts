import type { VerificationCapability } from '../verification.shared.js';
import { LivenessSession } from './liveness.entity.js';
import { LivenessResolver, LivenessUserFields, resolveLivenessReference } from './liveness.resolver.js';
import { LivenessService } from './liveness.service.js';
import { LivenessExpiryWorker } from './liveness.worker.js';

/** Liveness sessions: challenges judged against the user's reference selfie. */
export const livenessCapability: VerificationCapability = {
  name: 'liveness',
  resolvers: [LivenessResolver, LivenessUserFields],
  references: { LivenessSession: resolveLivenessReference },
  entities: [LivenessSession],
  webhookEvents: ['liveness.passed', 'liveness.failed'],
  personalData: (em, tenant, deps) => ({
    livenessSessions: new LivenessService(em, tenant, {
      files: deps.files,
      vision: deps.vision,
      sessionSeconds: deps.config.LIVENESS_SESSION_SECONDS,
    }),
  }),
  retention: async (deps) => ({ livenessPhotos: await LivenessService.expirePhotos(deps.orm, deps.files) }),
  workers: (deps) => [
    new LivenessExpiryWorker({
      orm: deps.orm,
      logger: deps.logger.child({ component: 'liveness' }),
      sweepMs: deps.config.LIVENESS_SWEEP_MS,
    }),
  ],
};
