import type { NotifyCapability } from '../notify.shared.js';
import { NotifyDataExportResolver, resolveNotifyDataExportReference, UserDataExportType } from './privacy.resolver.js';
import { notifyPrivacy } from './privacy.worker.js';

/** Notify's part of erasures, exports and retention. */
export const privacyCapability: NotifyCapability = {
  name: 'privacy',
  resolvers: [NotifyDataExportResolver],
  orphanedTypes: [UserDataExportType],
  references: { UserDataExport: resolveNotifyDataExportReference },
  workers: (deps) => [
    notifyPrivacy({
      pool: deps.pool,
      keyring: deps.keyring,
      events: deps.events,
      logger: deps.logger,
      sweepMs: deps.config.PRIVACY_SWEEP_MS,
      retentionSweepMs: deps.config.RETENTION_SWEEP_MS,
    }),
  ],
};
