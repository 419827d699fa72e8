import { Arg, Ctx, Field, Float, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { RiskJsonScalar } from '../../json.scalar.js';
import type { SubgraphContext } from '../../../../../platform/graphql/subgraph.js';
import { authorize } from '../../../../../platform/graphql/tenancy.js';
import type { RiskDeps } from '../../deps.js';

type Ctx = SubgraphContext<RiskDeps>;

@ObjectType('RiskGraphQueryResult')
export class RiskGraphQueryResultType {
  @Field(() => [GraphQLJSONObject], { description: 'One object per row, keyed by the RETURN items (alias or text)' })
  results!: Record<string, unknown>[];
  @Field(() => [String]) columns!: string[];
  @Field(() => Int, { description: 'Graph table rows (nodes and relationships) the database read' }) nodesScanned!: number;
  @Field(() => Float) latencyMs!: number;
  @Field({ description: 'More rows matched than GRAPH_QUERY_MAX_ROWS; results holds the first ones' }) truncated!: boolean;
}

@Resolver()
export class GraphQueryResolver {
  @Query(() => RiskGraphQueryResultType, {
    description: 'POST /v1/graph/query (scope graph:query): the read-only openCypher subset over the organization’s graph',
  })
  riskGraphQuery(@Arg('query') query: string, @Arg('params', () => RiskJsonScalar, { nullable: true }) params: unknown, @Ctx() ctx: Ctx) {
    return ctx.deps.graphQuery.run(authorize(ctx, 'risk', 'graph:query'), query, params);
  }
}
