import { GraphQLScalarType, valueFromASTUntyped } from 'graphql';

/**
 * Template data: a JSON object of placeholder values. Any JSON is let through here and judged by the
 * service (`data must be a JSON object`, 400): a scalar that refused values itself would fail in
 * the subgraph's variable coercion, which the gateway cannot tell from a subgraph fault.
 */
export const NotificationDataScalar = new GraphQLScalarType({
  name: 'NotificationData',
  description: 'A JSON object whose fields fill the template placeholders ({{first_name}} ← {"first_name": "Ama"})',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

export const isDataObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
