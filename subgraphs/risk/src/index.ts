import type { SubgraphDefinition } from '../../../platform/graphql/subgraph.js';
import { statusResolver } from '../../../platform/graphql/service-status.js';
import type { ServiceModule } from '../../../platform/service-module.js';

/** Transaction risk (evaluate, rules, graph): capabilities land with their issue. */
export const riskSubgraph: SubgraphDefinition = {
  name: 'risk',
  resolvers: [statusResolver('risk')],
};

export const riskService: ServiceModule<Record<string, never>> = {
  name: 'risk',
  definition: riskSubgraph,
  entities: [],
  async setup() {
    return { deps: {} };
  },
};
