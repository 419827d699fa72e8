import { Supergraph } from '@apollo/federation-internals';
import { lexicographicSortSchema, printSchema } from 'graphql';

/**
 * The graph as clients see it — the supergraph without federation's machinery — in SDL: published
 * as `schema/api.graphql` and served at `/schema.graphql` for code generation (introspection is off
 * in production). Sorted, so a change shows as a small diff.
 */
export function apiSchemaSdl(supergraphSdl: string): string {
  const schema = Supergraph.build(supergraphSdl, { validateSupergraph: false }).apiSchema().toGraphQLJSSchema();
  const roots = [
    [schema.getQueryType(), 'What you can read: records by id, lists as connections, your users'],
    [schema.getMutationType(), 'What you can change: each takes one input and answers a payload with userErrors'],
    [schema.getSubscriptionType(), 'What you can follow live over graphql-ws: each delivers event envelopes'],
  ] as const;
  for (const [type, description] of roots) if (type) type.description = description;
  return printSchema(lexicographicSortSchema(schema));
}

export const API_SCHEMA_PATH = '/schema.graphql';
