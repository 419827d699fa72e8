import type { VerificationCapability } from '../verification.shared.js';
import { BiometricDedupCheck } from './dedup.entity.js';
import { BiometricDedupResolver, BiometricEnrollmentResolver, BiometricsUserFields } from './dedup.resolver.js';
import { DedupService } from './dedup.service.js';
import { FaceGalleries } from './enrollment.store.js';
import { hasPgvector } from './pgvector.js';

/** Biometric dedup: one person, one account, over the enrolled faces. */
export const biometricsCapability: VerificationCapability<{ faceGalleries: FaceGalleries }> = {
  name: 'biometrics',
  resolvers: [BiometricDedupResolver, BiometricEnrollmentResolver, BiometricsUserFields],
  entities: [BiometricDedupCheck],
  webhookEvents: ['dedup.unique', 'dedup.match'],
  deps: async (shared) => ({ faceGalleries: new FaceGalleries(shared.keyring, await hasPgvector(shared.pool)) }),
  personalData: (em, tenant, deps) => ({
    biometrics: new DedupService(em, tenant, { vision: deps.vision, galleries: deps.faceGalleries }),
  }),
};
