import type { VerificationCapability } from '../verification.shared.js';
import { BusinessPerson, BusinessVerification } from './business.entity.js';
import {
  BusinessDirectorResolver,
  BusinessResolver,
  BusinessUboResolver,
  BusinessUserFields,
  resolveBusinessReference,
} from './business.resolver.js';
import { BusinessService } from './business.service.js';
import { BUSINESS_WEBHOOK_EVENTS } from './business.lifecycle.js';
import { BusinessWorker } from './business.worker.js';
import { BusinessRegistries } from './registries.js';

/** Business verification (KYB): registries, directors and owners screened. */
export const businessCapability: VerificationCapability<{ businessRegistries: BusinessRegistries; businessJobs: BusinessWorker }> = {
  name: 'business',
  resolvers: [BusinessResolver, BusinessDirectorResolver, BusinessUboResolver, BusinessUserFields],
  references: { BusinessVerification: resolveBusinessReference },
  entities: [BusinessVerification, BusinessPerson],
  webhookEvents: BUSINESS_WEBHOOK_EVENTS,
  deps: async (shared) => {
    const businessRegistries = new BusinessRegistries(shared.config);
    const businessJobs = new BusinessWorker({
      orm: shared.orm,
      boss: await shared.jobs(),
      pollSeconds: shared.config.JOB_POLL_SECONDS,
      registries: businessRegistries,
      retryDelays: shared.config.BUSINESS_REGISTRY_RETRY_DELAYS,
      timeoutMs: shared.config.BUSINESS_REGISTRY_TIMEOUT_MS,
      logger: shared.logger.child({ component: 'business' }),
    });
    return { businessRegistries, businessJobs };
  },
  personalData: (em, tenant, deps) => ({
    businessVerifications: new BusinessService(em, tenant, {
      registries: deps.businessRegistries,
      jobs: deps.businessJobs,
      aml: { screening: deps.screening, catalog: deps.amlCatalog },
    }),
  }),
  retention: async (deps) => ({ registryAnswers: await BusinessService.expireRegistryAnswers(deps.pool) }),
  workers: (deps) => [deps.businessJobs],
};
