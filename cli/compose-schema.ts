import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { API_SCHEMA_FILE, composeSupergraph, SCHEMA_DIR, SUPERGRAPH_PATH } from './schema.js';

/** `npm run schema`: regenerates schema/<subgraph>.graphql, schema/supergraph.graphql and schema/api.graphql. */
const { subgraphs, supergraph, api } = await composeSupergraph();
mkdirSync(SCHEMA_DIR, { recursive: true });
for (const [name, sdl] of Object.entries(subgraphs)) writeFileSync(path.join(SCHEMA_DIR, `${name}.graphql`), sdl);
writeFileSync(SUPERGRAPH_PATH, supergraph);
writeFileSync(API_SCHEMA_FILE, api);
console.log(
  `wrote ${Object.keys(subgraphs).length} subgraph schemas, the supergraph and the API schema in ${path.relative(process.cwd(), SCHEMA_DIR)}/`,
);
