import type { VerificationCapability } from '../verification.shared.js';
import { IdentityVerification } from './identity.entity.js';
import { IdentityOrchestrator } from './identity.orchestrator.js';
import { IdentityResolver, IdentityUserFields, resolveIdentityReference } from './identity.resolver.js';
import { IDENTITY_WEBHOOK_EVENTS } from './identity.events.js';
import { IdentityService } from './identity.service.js';

/** Identity verification: the tiered flow over the other checks, and its orchestrator. */
export const identityCapability: VerificationCapability = {
  name: 'identity',
  resolvers: [IdentityResolver, IdentityUserFields],
  references: { IdentityVerification: resolveIdentityReference },
  entities: [IdentityVerification],
  webhookEvents: IDENTITY_WEBHOOK_EVENTS,
  personalData: (em, tenant) => ({ identityVerifications: new IdentityService(em, tenant) }),
  workers: (deps) => [
    new IdentityOrchestrator({
      orm: deps.orm,
      events: deps.events,
      aml: { screening: deps.screening, catalog: deps.amlCatalog },
      logger: deps.logger.child({ component: 'identity' }),
      sweepMs: deps.config.IDENTITY_SWEEP_MS,
    }),
  ],
};
