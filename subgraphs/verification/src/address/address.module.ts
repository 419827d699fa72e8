import type { VerificationCapability } from '../verification.shared.js';
import { AddressVerification } from './address.entity.js';
import { AddressResolver, AddressUserFields, resolveAddressReference } from './address.resolver.js';
import { AddressService } from './address.service.js';
import { AddressWorker } from './address.worker.js';

/** Proof of address: bills and statements read (EN and FR), dated and matched. */
export const addressCapability: VerificationCapability<{ addressJobs: AddressWorker }> = {
  name: 'address',
  resolvers: [AddressResolver, AddressUserFields],
  references: { AddressVerification: resolveAddressReference },
  entities: [AddressVerification],
  webhookEvents: ['address.verified', 'address.rejected', 'address.manual_review'],
  deps: async (shared) => ({
    addressJobs: new AddressWorker({
      orm: shared.orm,
      boss: await shared.jobs(),
      pollSeconds: shared.config.JOB_POLL_SECONDS,
      files: shared.files,
      vision: shared.vision,
      logger: shared.logger.child({ component: 'address' }),
    }),
  }),
  personalData: (em, tenant, deps) => ({
    addressVerifications: new AddressService(em, tenant, {
      files: deps.files,
      jobs: deps.addressJobs,
      fetch: { timeoutMs: deps.config.ADDRESS_FETCH_TIMEOUT_MS, allowPrivateTargets: deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS },
    }),
  }),
  retention: async (deps) => ({ addressDocuments: await AddressService.expireDocuments(deps.pool, deps.files) }),
  workers: (deps) => [deps.addressJobs],
};
