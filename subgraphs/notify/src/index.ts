import type { SubgraphDefinition } from '../../../platform/graphql/subgraph.js';
import { statusResolver } from '../../../platform/graphql/service-status.js';

/** Notification dispatch (templates, send, batches): capabilities land with their issue. */
export const notifySubgraph: SubgraphDefinition = {
  name: 'notify',
  resolvers: [statusResolver('notify')],
};

export const notifyEntities: Function[] = [];
