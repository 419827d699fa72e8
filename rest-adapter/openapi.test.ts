import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Supergraph } from '@apollo/federation-internals';
import { Validator } from '@seriousme/openapi-schema-validator';
import { getNamedType, isObjectType, Kind, parse, validate, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { createLogger } from '../platform/logger.js';
import { openApiJson } from '../cli/schema.js';
import { API_SCHEMA_FILE } from '../cli/schema-files.js';
import { OPENAPI_FILE } from './openapi.js';
import { startRestAdapter } from './rest-adapter.js';
import { routes } from './routes.js';

/** The graph's public API as clients see it: composed from the committed supergraph. */
const SCHEMA = Supergraph.build(readFileSync(path.resolve('schema', 'supergraph.graphql'), 'utf8'))
  .apiSchema()
  .toGraphQLJSSchema();

describe('route table', () => {
  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s has a valid operation', (_name, route) => {
    expect(validate(SCHEMA, parse(route.operation))).toEqual([]);
  });

  it.each(routes.filter((route) => route.body).map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s has an example body with its required fields and only its own',
    (_name, route) => {
      const names = route.body!.map((field) => field.name);
      expect(Object.keys(route.example ?? {}).filter((name) => !names.includes(name))).toEqual([]);
      expect(route.body!.filter((field) => field.required && !(field.name in (route.example ?? {})))).toEqual([]);
      expect(route.example).toBeDefined();
    },
  );

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s selects the user errors of a payload it calls',
    (_name, route) => {
      const operation = parse(route.operation).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
      const root = operation.selectionSet.selections[0] as FieldNode;
      const returned = getNamedType(SCHEMA.getMutationType()!.getFields()[root.name.value]?.type ?? SCHEMA.getQueryType()!);
      if (!isObjectType(returned) || !('userErrors' in returned.getFields())) return;
      expect(root.selectionSet!.selections.some((s) => s.kind === Kind.FIELD && s.name.value === 'userErrors')).toBe(true);
    },
  );

  it('has no two routes on the same method and path', () => {
    const keys = routes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('OpenAPI document', () => {
  const json = openApiJson(readFileSync(API_SCHEMA_FILE, 'utf8'));
  const doc = JSON.parse(json) as Record<string, any>;

  it('is the committed schema/openapi.json (run `npm run openapi` when this fails)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(json);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is OpenAPI 3.1 at the published version, served with and without /v1', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.1.0');
    expect(doc.servers).toEqual([{ url: '/v1' }, { url: '/' }]);
  });

  it('lists every route with its path parameters, query parameters and body', () => {
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[path]?.[route.method.toLowerCase()] as Record<string, any>;
      expect(operation).toBeDefined();
      expect(operation.summary).toBe(route.summary);
      const params = operation.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
      for (const [, name] of route.path.matchAll(/:(\w+)/g)) expect(params).toContain(`path:${name}`);
      for (const field of route.query ?? []) expect(params).toContain(`query:${field.name}`);
      // a multipart route: its text fields, then its files
      const content = operation.requestBody?.content;
      const schema = (route.files ? content?.['multipart/form-data'] : content?.['application/json'])?.schema;
      const fields = [...(route.body ?? []), ...(route.files ?? [])].map((field) => field.name);
      expect(Object.keys(schema?.properties ?? {})).toEqual(fields);
    }
    const count = Object.values(doc.paths as Record<string, object>).reduce((n, methods) => n + Object.keys(methods).length, 0);
    expect(count).toBe(routes.length);
  });

  it('documents types, enums and required fields', () => {
    const create = doc.paths['/verifications/identity'].post as Record<string, any>;
    expect(create.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['userId'],
      properties: { userId: { type: 'string' }, tier: { type: 'string', enum: ['BASIC', 'STANDARD', 'ENHANCED'] } },
    });
    // 201 for a new verification, 200 for the active one it answers instead
    expect(Object.keys(create.responses)).toEqual(['200', '201', 'default']);
    const list = doc.paths['/verifications/identity/user/{userId}'].get as Record<string, any>;
    expect(list.parameters).toContainEqual(expect.objectContaining({ name: 'page', in: 'query', schema: { type: 'integer' } }));
    const client = doc.paths['/admin/api-clients'].post as Record<string, any>;
    expect(client.requestBody.content['application/json'].schema.properties.permissions).toEqual(
      expect.objectContaining({ type: 'array', items: { type: 'string' } }),
    );
    expect(Object.keys(client.responses)).toEqual(['201', 'default']);
  });

  it("documents each answer's body from the operation's result as the route maps it", () => {
    const bodyOf = (path: string, method: string, status: string) =>
      doc.paths[path][method].responses[status].content['application/json'].schema;
    for (const [path, methods] of Object.entries(doc.paths) as Array<[string, Record<string, any>]>) {
      for (const [method, operation] of Object.entries(methods)) {
        const success = Object.keys(operation.responses).find((status) => status !== 'default')!;
        expect([method, path, bodyOf(path, method, success)]).toEqual([method, path, expect.objectContaining({ type: expect.anything() })]);
        expect(operation.responses.default.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
    // a page of records, each with its nullable members and enums
    const page = bodyOf('/verifications/identity/user/{userId}', 'get', '200');
    expect(page).toMatchObject({
      type: 'object',
      required: ['data', 'total', 'page', 'limit'],
      properties: { total: { type: 'integer' } },
    });
    expect(page.properties.data.items.properties).toMatchObject({
      id: { type: 'string' },
      verifiedAt: { type: ['string', 'null'], format: 'date-time' },
      replacedById: { type: ['string', 'null'] },
    });
    // snake_case, a list keyed by channel, lower-case enums, members present only sometimes
    const notification = bodyOf('/notifications/{id}', 'get', '200');
    expect(notification.properties.channels).toMatchObject({
      type: 'object',
      propertyNames: { enum: expect.arrayContaining(['sms', 'email']) },
      additionalProperties: { properties: { status: { enum: expect.arrayContaining(['delivered', 'queued']) } } },
    });
    expect(notification.properties.channels.additionalProperties.required).not.toContain('opened_at');
    // a lookup's null is a 404: the body is the record
    expect(bodyOf('/verifications/identity/{id}', 'get', '200').type).toBe('object');
  });

  it('names the credentials of each route, and multipart routes that take JSON too', () => {
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['ApiKey', 'BearerAuth', 'AdminSecret']);
    expect(doc.paths['/admin/api-clients'].post.security).toEqual([{ AdminSecret: [] }]);
    expect(doc.paths['/verifications/identity'].post.security).toEqual([{ ApiKey: [] }, { BearerAuth: [] }]);
    for (const route of routes.filter((r) => r.files && r.json)) {
      const content = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')][route.method.toLowerCase()].requestBody.content;
      expect(Object.keys(content)).toEqual(['multipart/form-data', 'application/json']);
    }
  });

  it('is served at /openapi.json', async () => {
    const adapter = await startRestAdapter({ gatewayUrl: 'http://127.0.0.1:1/graphql', port: 0, logger: createLogger('openapi-test') });
    try {
      const res = await fetch(`${adapter.url}/openapi.json`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(doc);
    } finally {
      await adapter.stop();
    }
  });
});

describe('OpenAPI security', () => {
  it('offers X-API-Key, Authorization: Bearer and X-Admin-Secret (any one of them) for Swagger UI', () => {
    const doc = JSON.parse(openApiJson(readFileSync(API_SCHEMA_FILE, 'utf8'))) as Record<string, any>;
    expect(doc.components.securitySchemes).toMatchObject({
      ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      BearerAuth: { type: 'http', scheme: 'bearer' },
      AdminSecret: { type: 'apiKey', in: 'header', name: 'X-Admin-Secret' },
    });
    expect(doc.security).toEqual([{ ApiKey: [] }, { BearerAuth: [] }, { AdminSecret: [] }]);
  });
});
