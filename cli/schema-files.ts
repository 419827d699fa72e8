import path from 'node:path';

/** Where `npm run schema` writes the composed schemas (SCHEMA_DIR, default `schema/`); the gateway reads the supergraph from here. */
export const SCHEMA_DIR = path.resolve(process.env.SCHEMA_DIR ?? 'schema');
export const SUPERGRAPH_PATH = path.join(SCHEMA_DIR, 'supergraph.graphql');
/** The public API schema (no federation directives): for clients' code generation and the schema lint. */
export const API_SCHEMA_FILE = path.join(SCHEMA_DIR, 'api.graphql');
