import { SNAKE_CASE } from '../../../../platform/rest/mapping.js';
import type { Route } from '../../../../platform/rest/route.js';
/** The transaction graph's read-only query. */
export const graphRoutes: Route[] = [
  {
    method: 'POST',
    path: '/graph/query',
    summary: 'Run a read-only openCypher query over the organization’s transaction graph (scope graph:query)',
    body: [
      { name: 'query', type: 'string', required: true, description: 'The documented read-only subset' },
      { name: 'params', type: 'object', description: 'Values of $parameters' },
    ],
    example: {
      query: 'MATCH (a:Account {id: $id})-[:SENT*1..3]->(b) RETURN b.id AS b, count(*) AS paths ORDER BY paths DESC LIMIT 10',
      params: { id: '254700000001' },
    },
    operation: /* GraphQL */ `
      query RiskGraphQuery($query: String!, $params: JSON) {
        riskGraphQuery(query: $query, params: $params) {
          results
          nodesScanned
          latencyMs
          truncated
          columns
        }
      }
    `,
    variables: ({ body }) => ({ query: body.query, params: body.params }),
    response: { ...SNAKE_CASE, verbatim: ['results'] },
  },
];
