import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, parse } from 'graphql';
import { composeServices } from '@apollo/composition';
import { buildSubgraph } from '../platform/graphql/subgraph.js';
import { apiSchemaSdl } from '../gateway/api-schema.js';
import { DEFAULT_SUBGRAPH_URL, SERVICE_MODULES } from './services.js';
import { openApiDocument } from '../rest-adapter/openapi.js';
import { routes } from '../rest-adapter/routes.js';

export const SCHEMA_DIR = path.resolve(process.env.SCHEMA_DIR ?? 'schema');
export const SUPERGRAPH_PATH = path.join(SCHEMA_DIR, 'supergraph.graphql');
/** The public API schema (no federation directives): for clients' code generation and the schema lint. */
export const API_SCHEMA_FILE = path.join(SCHEMA_DIR, 'api.graphql');

/** Each subgraph's SDL and the supergraph composed from them (build time; no subgraph running). */
export async function composeSupergraph(): Promise<{ subgraphs: Record<string, string>; supergraph: string; api: string }> {
  const subgraphs: Record<string, string> = {};
  for (const m of SERVICE_MODULES) subgraphs[m.name] = (await buildSubgraph(m.definition)).sdl;
  const result = composeServices(
    SERVICE_MODULES.map((m) => ({ name: m.name, url: DEFAULT_SUBGRAPH_URL[m.name], typeDefs: parse(subgraphs[m.name]) })),
  );
  if (result.errors?.length || !result.supergraphSdl) {
    throw new Error(`Supergraph composition failed:\n${(result.errors ?? []).map((e) => e.message).join('\n')}`);
  }
  return { subgraphs, supergraph: result.supergraphSdl, api: apiSchemaSdl(result.supergraphSdl) };
}

export function readSupergraph(): string {
  return readFileSync(SUPERGRAPH_PATH, 'utf8');
}

/** The REST adapter's OpenAPI document (schema/openapi.json) for the graph's API schema. */
export function openApiJson(apiSdl: string): string {
  return `${JSON.stringify(openApiDocument(routes, buildSchema(apiSdl)), null, 2)}\n`;
}
