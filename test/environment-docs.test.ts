import { readFileSync } from 'node:fs';
import { configSchema, ENVIRONMENT } from '../platform/config.js';
import { ENVIRONMENT_DOC, environmentDocument } from '../cli/environment-docs.js';

describe('the environment variables page', () => {
  it('documents every variable of the configuration once', () => {
    const documented = ENVIRONMENT.flatMap((row) => row.vars);
    expect([...documented].sort()).toEqual(Object.keys(configSchema.shape).sort());
  });

  it('is what platform/config.ts generates (npm run docs:env)', async () => {
    expect(readFileSync(ENVIRONMENT_DOC, 'utf8')).toBe(await environmentDocument());
  });
});
