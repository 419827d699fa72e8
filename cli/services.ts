import type { Config } from '../platform/config.js';
import type { ServiceName } from '../platform/auth/principal.js';
import type { ServiceModule } from '../platform/service-module.js';
import { verificationService } from '../subgraphs/verification/src/index.js';
import { riskService } from '../subgraphs/risk/src/index.js';
import { notifyService } from '../subgraphs/notify/src/index.js';

/** The three subgraph services, with their ports (config) and default URLs (supergraph). */
export const SERVICE_MODULES: ServiceModule[] = [verificationService, riskService, notifyService];

export const SERVICE_PORT: Record<ServiceName, (c: Config) => number> = {
  verification: (c) => c.VERIFICATION_PORT,
  risk: (c) => c.RISK_PORT,
  notify: (c) => c.NOTIFY_PORT,
};

export const DEFAULT_SUBGRAPH_URL: Record<ServiceName, string> = {
  verification: 'http://localhost:4001/graphql',
  risk: 'http://localhost:4002/graphql',
  notify: 'http://localhost:4003/graphql',
};
