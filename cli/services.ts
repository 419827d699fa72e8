import type { Config } from '../platform/config.js';
import type { ServiceName } from '../platform/auth/principal.js';
import type { ServiceModule } from '../platform/service-module.js';

/**
 * The three subgraph services, loaded when a process runs them: a process that runs risk alone
 * (or only the gateway) does not load verification's code and models.
 */
const SERVICE_LOADERS: Record<ServiceName, () => Promise<ServiceModule>> = {
  verification: async () => (await import('../subgraphs/verification/src/index.js')).verificationService,
  risk: async () => (await import('../subgraphs/risk/src/index.js')).riskService,
  notify: async () => (await import('../subgraphs/notify/src/index.js')).notifyService,
};
export const SERVICE_NAMES = Object.keys(SERVICE_LOADERS) as ServiceName[];

/** The named subgraph services (all by default), in the order the supergraph lists them. */
export function loadServiceModules(names: readonly string[] = SERVICE_NAMES): Promise<ServiceModule[]> {
  return Promise.all(SERVICE_NAMES.filter((n) => names.includes(n)).map((n) => SERVICE_LOADERS[n]()));
}

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
