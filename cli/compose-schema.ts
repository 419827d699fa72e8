import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { composeSupergraph, openApiJson } from './schema.js';
import { API_SCHEMA_FILE, SCHEMA_DIR, SUPERGRAPH_PATH } from './schema-files.js';
import { OPENAPI_FILE } from '../rest-adapter/openapi.js';

/**
 * `npm run schema`: regenerates schema/<subgraph>.graphql, schema/supergraph.graphql, schema/api.graphql
 * and the REST adapter's schema/openapi.json (routes answer what the graph answers).
 */
const { subgraphs, supergraph, api } = await composeSupergraph();
mkdirSync(SCHEMA_DIR, { recursive: true });
for (const [name, sdl] of Object.entries(subgraphs)) writeFileSync(path.join(SCHEMA_DIR, `${name}.graphql`), sdl);
writeFileSync(SUPERGRAPH_PATH, supergraph);
writeFileSync(API_SCHEMA_FILE, api);
writeFileSync(OPENAPI_FILE, openApiJson(api));
console.log(
  `wrote ${Object.keys(subgraphs).length} subgraph schemas, the supergraph, the API schema and openapi.json in ${path.relative(process.cwd(), SCHEMA_DIR)}/`,
);
