import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { composeSupergraph, SCHEMA_DIR, SUPERGRAPH_PATH } from './schema.js';

/** `npm run schema`: regenerates schema/<subgraph>.graphql and schema/supergraph.graphql. */
const { subgraphs, supergraph } = await composeSupergraph();
mkdirSync(SCHEMA_DIR, { recursive: true });
for (const [name, sdl] of Object.entries(subgraphs)) writeFileSync(path.join(SCHEMA_DIR, `${name}.graphql`), sdl);
writeFileSync(SUPERGRAPH_PATH, supergraph);
console.log(`wrote ${Object.keys(subgraphs).length} subgraph schemas and ${path.relative(process.cwd(), SUPERGRAPH_PATH)}`);
