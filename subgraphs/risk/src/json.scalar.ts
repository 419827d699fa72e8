import { GraphQLScalarType, valueFromASTUntyped } from 'graphql';

/**
 * Caller-supplied JSON (transaction metadata, graph query parameters). Any JSON value is let
 * through here and judged by the service (`metadata must be an object`, 400): a scalar refusing
 * values itself would fail in the subgraph's variable coercion, which the gateway reports as an
 * internal error.
 */
export const RiskJsonScalar = new GraphQLScalarType({
  name: 'RiskJSON',
  description: 'A JSON value, validated by the operation (metadata and params must be objects)',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});
