import { Arg, Ctx, Field, Float, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { JSON as JSONScalar } from '../../../../../platform/graphql/scalars.js';
import type { SubgraphContext } from '../../../../../platform/graphql/subgraph.js';
import { authorize } from '../../../../../platform/graphql/tenancy.js';
import type { RiskShared } from '../../risk.shared.js';
import type { GraphQueryExecutor } from './cypher.executor.js';

/** What the graph capability builds at start: the read-only Cypher executor and its own pool. */
export interface GraphDeps {
  graphQuery: GraphQueryExecutor;
}

type Ctx = SubgraphContext<RiskShared & GraphDeps>;

@ObjectType('RiskGraphQueryResult', { description: 'The rows a graph query returned' })
export class RiskGraphQueryResultType {
  @Field(() => [JSONScalar], { description: 'One object per row, keyed by the RETURN items (their alias, else their text)' })
  results!: Record<string, unknown>[];

  @Field(() => [String], { description: 'The RETURN items, in order' })
  columns!: string[];

  @Field(() => Int, { description: 'Graph rows (nodes and relationships) the database read to answer' })
  nodesScanned!: number;

  @Field(() => Float, { description: 'Milliseconds the query took' })
  latencyMs!: number;

  @Field({ description: 'More rows matched than the row cap: results holds the first ones' })
  truncated!: boolean;
}

@Resolver()
export class GraphQueryResolver {
  @Query(() => RiskGraphQueryResultType, {
    description:
      'Runs a read-only openCypher query (the documented subset) over the organization’s transaction graph: accounts, devices, IPs and transfers',
  })
  riskGraphQuery(
    @Arg('query', { description: 'The query; parameters are written $name' }) query: string,
    @Arg('params', () => JSONScalar, { nullable: true, description: 'An object with the values of the query’s $parameters' })
    params: unknown,
    @Ctx() ctx: Ctx,
  ) {
    return ctx.deps.graphQuery.run(authorize(ctx, 'risk', 'graph:query'), query, params);
  }
}
