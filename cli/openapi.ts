import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { OPENAPI_FILE } from '../rest-adapter/openapi.js';
import { openApiJson } from './schema.js';
import { API_SCHEMA_FILE } from './schema-files.js';

/** `npm run openapi`: regenerates schema/openapi.json from the route table and the committed API schema. */
writeFileSync(OPENAPI_FILE, openApiJson(readFileSync(API_SCHEMA_FILE, 'utf8')));
console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
