import type { SubgraphDefinition } from '../../../platform/graphql/subgraph.js';
import { statusResolver } from '../../../platform/graphql/service-status.js';
import type { ServiceModule } from '../../../platform/service-module.js';

/** Notification dispatch (templates, send, batches): capabilities land with their issue. */
export const notifySubgraph: SubgraphDefinition = {
  name: 'notify',
  resolvers: [statusResolver('notify')],
};

export const notifyService: ServiceModule<Record<string, never>> = {
  name: 'notify',
  definition: notifySubgraph,
  entities: [],
  async setup() {
    return { deps: {} };
  },
};
