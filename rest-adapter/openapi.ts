import type { Field, FieldType, Route } from './route.js';

/** The published interface version (spec: "The interface description carries version 1.1.0"). */
const API_VERSION = '1.1.0';

/** OpenAPI 3.0.3 document generated from the route table; each path is served under both servers. */
export function openApiDocument(routes: readonly Route[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operationObject(route);
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Verification platform REST API', version: API_VERSION },
    servers: [{ url: '/v1' }, { url: '/' }],
    paths,
    // any one of them (the gateway checks X-Admin-Secret, then X-API-Key, then the bearer token)
    security: [{ ApiKey: [] }, { BearerAuth: [] }, { AdminSecret: [] }],
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key (test keys run in the sandbox)' },
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key or a session token (`st_…`) as `Authorization: Bearer`' },
        AdminSecret: { type: 'apiKey', in: 'header', name: 'X-Admin-Secret', description: 'The platform admin secret (admin routes)' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['statusCode', 'error', 'code', 'message', 'timestamp'],
          properties: {
            statusCode: { type: 'integer' },
            error: { type: 'string' },
            code: { type: 'string' },
            message: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
            timestamp: { type: 'string', format: 'date-time' },
          },
        },
      },
    },
  };
}

function operationObject(route: Route) {
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const queryParams = (route.query ?? []).map((field) => ({
    name: field.name,
    in: 'query',
    required: field.required ?? false,
    ...(field.description ? { description: field.description } : {}),
    schema: schemaOf(field.type),
  }));
  // A status chosen from the data (e.g. 201 created / 200 existing) is documented as a range.
  const success = typeof route.status === 'function' ? '2XX' : String(route.status ?? 200);
  return {
    summary: route.summary,
    parameters: [...pathParams, ...queryParams],
    ...(route.files
      ? {
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': { schema: multipartSchema(route) },
              ...(route.json ? { 'application/json': { schema: objectSchema(route.json) } } : {}),
            },
          },
        }
      : route.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: objectSchema(route.body), example: route.example } } } }
        : {}),
    responses: {
      [success]: { description: 'Success', content: { 'application/json': {} } },
      default: {
        description: 'Error: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500 or 503 (`statusCode`, `code`)',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  };
}

function objectSchema(fields: readonly Field[]) {
  const required = fields.filter((field) => field.required).map((field) => field.name);
  return {
    type: 'object',
    ...(required.length ? { required } : {}),
    properties: Object.fromEntries(
      fields.map((field) => [field.name, { ...schemaOf(field.type), ...(field.description ? { description: field.description } : {}) }]),
    ),
  };
}

/** A multipart route's text fields and files (binary strings). */
function multipartSchema(route: Route) {
  const text = objectSchema(route.body ?? []);
  const files = route.files ?? [];
  const required = [...(text.required ?? []), ...files.filter((file) => file.required).map((file) => file.name)];
  return {
    type: 'object',
    ...(required.length ? { required } : {}),
    properties: {
      ...text.properties,
      ...Object.fromEntries(
        files.map((file) => [
          file.name,
          { type: 'string', format: 'binary', ...(file.description ? { description: file.description } : {}) },
        ]),
      ),
    },
  };
}

function schemaOf(type: FieldType): Record<string, unknown> {
  if (typeof type === 'string') return { type };
  if ('enum' in type) return { type: 'string', enum: [...type.enum] };
  return { type: 'array', items: schemaOf(type.array) };
}
