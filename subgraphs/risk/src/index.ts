import type { SubgraphDefinition } from '../../../platform/graphql/subgraph.js';
import { statusResolver } from '../../../platform/graphql/service-status.js';

/** Transaction risk (evaluate, rules, graph): capabilities land with their issue. */
export const riskSubgraph: SubgraphDefinition = {
  name: 'risk',
  resolvers: [statusResolver('risk')],
};

export const riskEntities: Function[] = [];
