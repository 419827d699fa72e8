import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getNamedType } from 'graphql';
import { routes } from '../rest-adapter/routes.js';
import { routeRootField } from './support/references.js';
import type { Route } from '../rest-adapter/route.js';
import { SPEC_ENDPOINTS, type SpecEndpoint } from './support/spec-tables.js';

/**
 * Both specifications walked table by table (test/support/spec-tables.ts is their transcription):
 * every Form A and Form B path is a route of the table, takes the payload, file and query names
 * the spec gives, answers with the spec's status, and documents in OpenAPI every member the spec
 * names.
 */

const OPENAPI = JSON.parse(readFileSync(path.resolve('schema', 'openapi.json'), 'utf8'));

/** `/a/{id}/b` and `/a/:id/b` alike. */
const shape = (p: string) => p.replace(/\{\w+\}|:\w+/g, '{}');
const label = (e: SpecEndpoint) => `${e.method} ${e.path}${e.form ? ` (Form ${e.form})` : ''}`;

export function routeOf(e: SpecEndpoint): Route | undefined {
  return routes.find((r) => r.method === e.method && shape(r.path) === shape(e.path));
}

/** Whether a JSON schema (OpenAPI 3.1) describes the member at `member` (dotted, `[]` for items). */
export function describes(schema: any, member: string): boolean {
  if (!member) return true;
  const variants = [schema, ...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])];
  if (member.startsWith('[]')) {
    const rest = member.slice(2).replace(/^\./, '');
    return variants.some((s) => s.items && describes(s.items, rest));
  }
  const [, head, tail = ''] = /^([^.[]+)(.*)$/.exec(member)!;
  const rest = tail.replace(/^\./, '');
  return variants.some((s) => {
    const next = s.properties?.[head] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    return next !== undefined && describes(next, rest);
  });
}

function responseSchema(e: SpecEndpoint, status: number): any {
  const route = routeOf(e)!;
  const operation = OPENAPI.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[e.method.toLowerCase()];
  return operation?.responses?.[String(status)]?.content?.['application/json']?.schema;
}

/** Rows of one method and path (a route serving two Forms declares both Forms' fields, none of them required). */
const formsOf = (e: SpecEndpoint) => SPEC_ENDPOINTS.filter((o) => o.method === e.method && shape(o.path) === shape(e.path));

describe('the route table against both specifications, table by table', () => {
  it.each(SPEC_ENDPOINTS.map((e) => [label(e), e] as const))('%s is a route', (_l, e) => {
    expect(routeOf(e)).toBeDefined();
  });

  it.each(SPEC_ENDPOINTS.filter((e) => e.required || e.optional).map((e) => [label(e), e] as const))(
    '%s takes the payload fields the spec names',
    (_l, e) => {
      const route = routeOf(e)!;
      // a multipart route's JSON Form (a URL instead of a file) declares its own fields
      const fields = e.form === 'B' && route.json ? route.json : (route.body ?? []);
      const names = fields.map((f) => f.name);
      expect([...(e.required ?? []), ...(e.optional ?? [])].filter((n) => !names.includes(n))).toEqual([]);
      if (formsOf(e).length === 1) {
        const required = fields.filter((f) => f.required).map((f) => f.name);
        expect([...required].sort()).toEqual([...(e.required ?? [])].sort());
      }
    },
  );

  it.each(SPEC_ENDPOINTS.filter((e) => e.files).map((e) => [label(e), e] as const))('%s takes the files the spec names', (_l, e) => {
    expect((routeOf(e)!.files ?? []).map((f) => f.name)).toEqual(expect.arrayContaining([...e.files!]));
  });

  it.each(SPEC_ENDPOINTS.filter((e) => e.query).map((e) => [label(e), e] as const))(
    '%s takes the query parameters the spec names',
    (_l, e) => {
      expect((routeOf(e)!.query ?? []).map((f) => f.name)).toEqual(expect.arrayContaining([...e.query!]));
    },
  );

  it.each(SPEC_ENDPOINTS.map((e) => [label(e), e] as const))('%s answers the spec’s status', (_l, e) => {
    const route = routeOf(e)!;
    // a create-or-return route answers 201 for a new record and its status for an existing one
    expect([...(route.created ? [201] : []), route.status ?? 200]).toContain(e.status ?? e.ourStatus);
  });

  it.each(SPEC_ENDPOINTS.filter((e) => e.response || e.schemaOnly).map((e) => [label(e), e] as const))(
    '%s documents in OpenAPI every member the spec names',
    (_l, e) => {
      const schema = responseSchema(e, e.status ?? e.ourStatus ?? 200);
      expect(schema).toBeDefined();
      expect([...(e.response ?? []), ...(e.schemaOnly ?? [])].filter((m) => !describes(schema, m))).toEqual([]);
    },
  );

  it('every list takes page and limit', () => {
    const unpaged = routes
      .filter((r) => r.method === 'GET' && getNamedType(routeRootField(r).field.type).name.endsWith('Connection'))
      .filter((r) => !['page', 'limit'].every((n) => r.query?.some((q) => q.name === n)))
      .map((r) => `${r.method} ${r.path}`);
    expect(unpaged).toEqual([]);
  });
});
