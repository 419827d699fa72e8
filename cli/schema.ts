import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'graphql';
import { composeServices } from '@apollo/composition';
import { buildSubgraph, type SubgraphDefinition } from '../platform/graphql/subgraph.js';
import { verificationSubgraph } from '../subgraphs/verification/src/index.js';
import { riskSubgraph } from '../subgraphs/risk/src/index.js';
import { notifySubgraph } from '../subgraphs/notify/src/index.js';

export const SUBGRAPHS: Array<{ definition: SubgraphDefinition<never>; defaultUrl: string }> = [
  { definition: verificationSubgraph as SubgraphDefinition<never>, defaultUrl: 'http://localhost:4001/graphql' },
  { definition: riskSubgraph as SubgraphDefinition<never>, defaultUrl: 'http://localhost:4002/graphql' },
  { definition: notifySubgraph as SubgraphDefinition<never>, defaultUrl: 'http://localhost:4003/graphql' },
];

export const SCHEMA_DIR = path.resolve(process.env.SCHEMA_DIR ?? 'schema');
export const SUPERGRAPH_PATH = path.join(SCHEMA_DIR, 'supergraph.graphql');

/** Each subgraph's SDL and the supergraph composed from them (build time; no subgraph running). */
export async function composeSupergraph(): Promise<{ subgraphs: Record<string, string>; supergraph: string }> {
  const subgraphs: Record<string, string> = {};
  for (const s of SUBGRAPHS) subgraphs[s.definition.name] = (await buildSubgraph(s.definition)).sdl;
  const result = composeServices(
    SUBGRAPHS.map((s) => ({ name: s.definition.name, url: s.defaultUrl, typeDefs: parse(subgraphs[s.definition.name]) })),
  );
  if (result.errors?.length || !result.supergraphSdl) {
    throw new Error(`Supergraph composition failed:\n${(result.errors ?? []).map((e) => e.message).join('\n')}`);
  }
  return { subgraphs, supergraph: result.supergraphSdl };
}

export function readSupergraph(): string {
  return readFileSync(SUPERGRAPH_PATH, 'utf8');
}
