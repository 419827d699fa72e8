import { Supergraph } from '@apollo/federation-internals';
import { lexicographicSortSchema, printSchema } from 'graphql';

/**
 * The graph as clients see it — the supergraph without federation's machinery — in SDL: published
 * as `schema/api.graphql` and served at `/schema.graphql` for code generation (introspection is off
 * in production). Sorted, so a change shows as a small diff.
 */
export function apiSchemaSdl(supergraphSdl: string): string {
  return printSchema(lexicographicSortSchema(Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema()));
}

export const API_SCHEMA_PATH = '/schema.graphql';
