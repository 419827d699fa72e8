import { buildSchema, parse } from 'graphql';
import { composeServices } from '@apollo/composition';
import { buildSubgraph } from '../platform/graphql/subgraph.js';
import { apiSchemaSdl } from '../gateway/api-schema.js';
import { DEFAULT_SUBGRAPH_URL, loadServiceModules } from './services.js';
import { openApiDocument } from '../rest-adapter/openapi.js';
import { routes } from '../rest-adapter/routes.js';

/** Each subgraph's SDL and the supergraph composed from them (build time; no subgraph running). */
export async function composeSupergraph(): Promise<{ subgraphs: Record<string, string>; supergraph: string; api: string }> {
  const modules = await loadServiceModules();
  const subgraphs: Record<string, string> = {};
  for (const m of modules) subgraphs[m.name] = (await buildSubgraph(m.definition)).sdl;
  const result = composeServices(
    modules.map((m) => ({ name: m.name, url: DEFAULT_SUBGRAPH_URL[m.name], typeDefs: parse(subgraphs[m.name]) })),
  );
  if (result.errors?.length || !result.supergraphSdl) {
    throw new Error(`Supergraph composition failed:\n${(result.errors ?? []).map((e) => e.message).join('\n')}`);
  }
  return { subgraphs, supergraph: result.supergraphSdl, api: apiSchemaSdl(result.supergraphSdl) };
}

/** The REST adapter's OpenAPI document (schema/openapi.json) for the graph's API schema. */
export function openApiJson(apiSdl: string): string {
  return `${JSON.stringify(openApiDocument(routes, buildSchema(apiSdl)), null, 2)}\n`;
}
