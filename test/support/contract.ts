import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { OPENAPI_FILE } from '../../rest-adapter/openapi.js';

/**
 * The contract of the REST adapter: every answer a suite receives (status and JSON body) is the one
 * the committed OpenAPI document describes for its operation. Checked on each `stack.rest()` call.
 */

type Json = Record<string, any>;

interface Operation {
  method: string;
  pattern: RegExp;
  path: string;
  responses: Record<string, Json>;
}

let operations: Operation[] | undefined;
const ajv = new Ajv2020({ strict: false, allErrors: true });
(formats as unknown as (ajv: Ajv2020) => void)(ajv);
const validators = new Map<string, ValidateFunction>();

function load(): Operation[] {
  const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;
  ajv.addSchema(doc.components.schemas.Error, '#/components/schemas/Error');
  // in document order, as the adapter matches its routes (the first one wins)
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      pattern: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}/?$`),
      responses: (operation as Json).responses,
    })),
  );
}

/** Why an answer breaks the contract, or null (also for a request the document does not describe). */
export function contractViolation(method: string, url: string, status: number, contentType: string | null, body: unknown): string | null {
  operations ??= load();
  const path = decodeURI(url.split('?')[0]).replace(/^\/v1(?=\/)/, '');
  const operation = operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(path));
  if (!operation) return null;
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => operation.responses[k]);
  const where = `${method} ${url} → ${status}`;
  if (!key || (key === 'default' && status < 400)) return `${where}: status not documented for ${operation.method} ${operation.path}`;
  const schema = operation.responses[key].content?.['application/json']?.schema;
  if (!schema) return null;
  if (!contentType?.startsWith('application/json')) return `${where}: ${contentType ?? 'no content type'}, not JSON`;
  const id = `${operation.method} ${operation.path} ${key}`;
  let validate = validators.get(id);
  if (!validate) validators.set(id, (validate = ajv.compile(schema)));
  if (validate(body)) return null;
  const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`);
  return `${where} does not match the OpenAPI document (${operation.method} ${operation.path} ${key}): ${errors.join('; ')}`;
}
