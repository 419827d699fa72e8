import type { RiskCapability } from '../risk.shared.js';
import { RiskDataExportResolver, resolveRiskDataExportReference, UserDataExportType } from './privacy.resolver.js';
import { riskErasures } from './privacy.worker.js';

/** Risk's part of erasures and exports (it keeps none of the kinds retention applies to). */
export const privacyCapability: RiskCapability = {
  name: 'privacy',
  resolvers: [RiskDataExportResolver],
  orphanedTypes: [UserDataExportType],
  references: { UserDataExport: resolveRiskDataExportReference },
  workers: (deps) => [riskErasures({ pool: deps.pool, events: deps.events, logger: deps.logger, sweepMs: deps.config.PRIVACY_SWEEP_MS })],
};
