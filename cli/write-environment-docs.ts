import { writeFileSync } from 'node:fs';
import { ENVIRONMENT_DOC, environmentDocument } from './environment-docs.js';

/** `npm run docs:env`: rewrites docs/environment.md from platform/config.ts. */
writeFileSync(ENVIRONMENT_DOC, await environmentDocument());
console.log(`wrote ${ENVIRONMENT_DOC}`);
