import type { VerificationCapability } from '../verification.shared.js';
import { DocumentVerification } from './document.entity.js';
import { DocumentResolver, DocumentUserFields, resolveDocumentReference } from './document.resolver.js';
import { DocumentService } from './document.service.js';
import { DocumentWorker } from './document.worker.js';

/** Identity documents: MRZ, printed fields, portrait, tampering. */
export const documentCapability: VerificationCapability<{ documentJobs: DocumentWorker }> = {
  name: 'document',
  resolvers: [DocumentResolver, DocumentUserFields],
  references: { DocumentVerification: resolveDocumentReference },
  entities: [DocumentVerification],
  webhookEvents: ['document.verified', 'document.rejected'],
  deps: async (shared) => ({
    documentJobs: new DocumentWorker({
      orm: shared.orm,
      boss: await shared.jobs(),
      pollSeconds: shared.config.JOB_POLL_SECONDS,
      files: shared.files,
      vision: shared.vision,
      logger: shared.logger.child({ component: 'documents' }),
    }),
  }),
  personalData: (em, tenant, deps) => ({ documents: new DocumentService(em, tenant, { files: deps.files, jobs: deps.documentJobs }) }),
  retention: async (deps) => ({ documentImages: await DocumentService.expireImages(deps.pool, deps.files) }),
  workers: (deps) => [deps.documentJobs],
};
