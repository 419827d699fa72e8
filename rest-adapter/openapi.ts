import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { ERROR_STATUS, HTTP_REASON } from '../platform/errors.js';
import { responseSchema } from './response-schema.js';
import type { Field, FieldType, Route } from '../platform/rest/route.js';

/** The published interface version (spec: "The interface description carries version 1.1.0"). */
const API_VERSION = '1.1.0';

/** The committed document (`npm run schema` or `npm run openapi` writes it next to the GraphQL schema). */
export const OPENAPI_FILE = path.join(path.resolve(process.env.SCHEMA_DIR ?? 'schema'), 'openapi.json');

/** The committed document, as served at /openapi.json. */
export function readOpenApiDocument(): unknown {
  return JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
}

/** Ready to use in Swagger UI's Authorize dialog. */
const SECURITY_SCHEMES = {
  ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key (test keys run in the sandbox)' },
  BearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key, or a session token (`st_…`, reads only), as `Authorization: Bearer`',
  },
  AdminSecret: { type: 'apiKey', in: 'header', name: 'X-Admin-Secret', description: 'The platform admin secret (admin routes)' },
};

/** Admin routes take the admin secret; every other route an API key, as a header or a bearer token. */
const securityOf = (route: Route) => (route.path.startsWith('/admin/') ? [{ AdminSecret: [] }] : [{ ApiKey: [] }, { BearerAuth: [] }]);

/**
 * OpenAPI 3.1 document generated from the route table and the graph's API schema (response bodies
 * are the operations' results as each route maps them); each path is served under both servers.
 */
export function openApiDocument(routes: readonly Route[], schema: GraphQLSchema) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operationObject(route, schema);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Verification platform REST API', version: API_VERSION },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/v1' }, { url: '/' }],
    paths,
    // any one of them (the gateway checks X-Admin-Secret, then X-API-Key, then the bearer token)
    security: [{ ApiKey: [] }, { BearerAuth: [] }, { AdminSecret: [] }],
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['statusCode', 'error', 'code', 'message', 'timestamp'],
          properties: {
            statusCode: { type: 'integer', enum: [...new Set(Object.values(ERROR_STATUS))] },
            error: { type: 'string', examples: [HTTP_REASON[400]] },
            code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
            message: {
              description: 'A list for BAD_USER_INPUT and VALIDATION_FAILED (one message per problem), else one string',
              oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
            },
            timestamp: { type: 'string', format: 'date-time' },
          },
        },
      },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

function operationObject(route: Route, schema: GraphQLSchema) {
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
  // a create-or-return route answers 201 for a new record and its status for an existing one
  const successes = [...(route.created ? [201] : []), route.status ?? 200];
  const body = responseSchema(route, schema);
  const success = {
    description: 'Success',
    ...(route.totalCount
      ? { headers: { 'X-Total-Count': { description: 'How many records all pages hold', schema: { type: 'integer' } } } }
      : {}),
    content: { 'application/json': body ? { schema: body } : {} },
  };
  return {
    summary: route.summary,
    operationId: operationIdOf(route),
    security: securityOf(route),
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
      ...Object.fromEntries(
        successes.map((status) => [String(status), status === 201 && route.created ? { ...success, description: 'Created' } : success]),
      ),
      default: {
        description: 'Error: 400, 401, 403, 404, 409, 413, 415, 422, 429, 500 or 503 (`statusCode`, `code`)',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  };
}

/** Method and path in camelCase (`getVerificationsIdentityId`): unique, as routes are. */
function operationIdOf(route: Route): string {
  const words = `${route.method} ${route.path}`
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.map((w, i) => (i ? w[0].toUpperCase() + w.slice(1) : w)).join('');
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
