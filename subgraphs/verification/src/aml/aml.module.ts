import type { VerificationCapability } from '../verification.shared.js';
import { AmlBatch, AmlBatchSubject, AmlHit, AmlScreening } from './aml.entity.js';
import { AmlBatchResolver, AmlResolver, AmlUserFields } from './aml.resolver.js';
import { AmlService } from './aml.service.js';
import { AmlWorker } from './aml.worker.js';

/** AML screening of people and batches against the lists. */
export const amlCapability: VerificationCapability<{ amlJobs: AmlWorker }> = {
  name: 'aml',
  resolvers: [AmlResolver, AmlBatchResolver, AmlUserFields],
  entities: [AmlScreening, AmlHit, AmlBatch, AmlBatchSubject],
  webhookEvents: ['aml.clear', 'aml.flagged', 'aml.batch_complete'],
  deps: async (shared) => ({
    amlJobs: new AmlWorker({
      orm: shared.orm,
      boss: await shared.jobs(),
      pollSeconds: shared.config.JOB_POLL_SECONDS,
      deliveries: shared.deliveries,
      logger: shared.logger.child({ component: 'aml' }),
      screening: shared.screening,
      catalog: shared.amlCatalog,
    }),
  }),
  personalData: (em, tenant, deps) => ({
    amlScreenings: new AmlService(em, tenant, { screening: deps.screening, catalog: deps.amlCatalog }),
  }),
  workers: (deps) => [deps.amlJobs],
};
