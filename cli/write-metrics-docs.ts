import { writeFileSync } from 'node:fs';
import { METRICS_DOC, metricsDocument } from './metrics-docs.js';

/** `npm run docs:metrics`: rewrites docs/metrics.md from platform/metrics/. */
writeFileSync(METRICS_DOC, await metricsDocument());
console.log(`wrote ${METRICS_DOC}`);
