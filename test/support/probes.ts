import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  getNamedType,
  isInputObjectType,
  isNonNullType,
  Kind as AstKind,
  parse,
  valueFromASTUntyped,
  type FieldNode,
  type GraphQLField,
  type GraphQLInputType,
  type OperationDefinitionNode,
} from 'graphql';
import type { ServiceName } from '../../platform/auth/principal.js';
import type { Route } from '../../platform/rest/route.js';
import { FilePart } from '../../platform/graphql/upload.js';
import { routes } from '../../rest-adapter/routes.js';
import {
  ADMIN_FIELDS,
  camelCase,
  referenceKind,
  rootTypeOf,
  routeRootField,
  sampleValue,
  selectionOf,
  serviceOf,
  UNIQUE_FIELDS,
  type RecordKind,
} from './references.js';

/**
 * Requests generated from the route table and the schema: every REST route and every root field,
 * with the positions where they name a record (by kind) so a suite can put another tenant's ids
 * there, and a valid base request (the route's example, or sample values) for the rest.
 */

export type Refs = Record<RecordKind, string[]>;

/** Where a request names a record: a path parameter, a query parameter, a body field or a GraphQL argument path. */
export interface RefSlot {
  at: 'param' | 'query' | 'body' | 'arg';
  /** Name (REST) or path of argument names (GraphQL). */
  path: string[];
  kind: RecordKind;
}

export interface RestRequest {
  route: Route;
  service: ServiceName;
  slots: RefSlot[];
}

export interface GraphQLRequest {
  rootType: 'Query' | 'Mutation';
  field: GraphQLField<unknown, unknown>;
  service: ServiceName;
  slots: RefSlot[];
  admin: boolean;
}

const kindOrNull = (field: GraphQLField<unknown, unknown>, name: string, type?: GraphQLInputType) => {
  // only text names a record (a `to` date does not)
  if (type && !['String', 'ID'].includes(getNamedType(type).name)) return null;
  const kind = referenceKind(field, name);
  return kind === 'shared' ? null : kind;
};

export const ADMIN_ROUTE = (route: Route) => ADMIN_FIELDS.includes(routeRootField(route).field.name);

/** Every REST route with its reference slots. */
export function restRequests(): RestRequest[] {
  return routes.map((route) => {
    const { rootType, field } = routeRootField(route);
    const slots: RefSlot[] = [];
    for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
      const kind = kindOrNull(field, name);
      if (!kind) throw new Error(`${route.method} ${route.path}: which record does :${name} name?`);
      slots.push({ at: 'param', path: [name], kind });
    }
    for (const f of route.query ?? []) {
      const kind = kindOrNull(field, camelCase(f.name));
      if (kind) slots.push({ at: 'query', path: [f.name], kind });
    }
    for (const f of route.body ?? []) {
      const kind = kindOrNull(field, camelCase(f.name));
      if (kind) slots.push({ at: 'body', path: [f.name], kind });
    }
    return { route, service: serviceOf(rootType, field.name), slots };
  });
}

/** Every root query and mutation with its reference slots (arguments, and fields of input arguments). */
export function graphqlRequests(): GraphQLRequest[] {
  const requests: GraphQLRequest[] = [];
  for (const rootType of ['Query', 'Mutation'] as const) {
    for (const field of Object.values(rootTypeOf(rootType).getFields())) {
      const slots: RefSlot[] = [];
      for (const arg of field.args) {
        const kind = kindOrNull(field, arg.name, arg.type);
        if (kind) slots.push({ at: 'arg', path: [arg.name], kind });
        const named = getNamedType(arg.type);
        if (!isInputObjectType(named)) continue;
        for (const inner of Object.values(named.getFields())) {
          const innerKind = kindOrNull(field, inner.name, inner.type);
          if (innerKind) slots.push({ at: 'arg', path: [arg.name, inner.name], kind: innerKind });
        }
      }
      requests.push({ rootType, field, service: serviceOf(rootType, field.name), slots, admin: ADMIN_FIELDS.includes(field.name) });
    }
  }
  return requests;
}

/** Values a run needs in every request whatever the example says (a callback URL reaching its receiver), by field name. */
export type FixedValues = Record<string, unknown>;

/** Every subscription field with its reference slots (arguments only). */
export function subscriptionRequests(): Array<{ field: GraphQLField<unknown, unknown>; service: ServiceName; slots: RefSlot[] }> {
  return Object.values(rootTypeOf('Subscription').getFields()).map((field) => ({
    field,
    service: serviceOf('Subscription', field.name),
    slots: field.args.flatMap((arg) => {
      const kind = kindOrNull(field, arg.name, arg.type);
      return kind ? [{ at: 'arg' as const, path: [arg.name], kind }] : [];
    }),
  }));
}

/** A subscription document naming `refs`' records in every reference argument. */
export function subscriptionCall(request: ReturnType<typeof subscriptionRequests>[number], refs: Refs): string {
  const args = request.slots.map((slot) => `${slot.path[0]}: ${JSON.stringify(refs[slot.kind][0])}`).join(', ');
  return `subscription { ${request.field.name}${args ? `(${args})` : ''} ${selectionOf(getNamedType(request.field.type), 2)} }`;
}

let fresh = 0;
/** A copy where every value that must be unique per call (transaction ids) is new, and fixed ones are set. */
export function prepared<T>(value: T, fixed: FixedValues = {}): T {
  if (Array.isArray(value)) return value.map((v) => prepared(v, fixed)) as T;
  if (value && typeof value === 'object' && !(value instanceof FilePart)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k in fixed ? fixed[k] : UNIQUE_FIELDS.includes(k) && typeof v === 'string' ? `${v}-${++fresh}` : prepared(v, fixed),
      ]),
    ) as T;
  }
  return value;
}

function setAt(target: Record<string, any>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) node = node[key] ??= {};
  node[path[path.length - 1]] = value;
}

/** The image every file field of a generated request carries (a small grey JPEG we made). */
const FIXTURE_IMAGE = readFileSync(path.resolve('test/fixtures/blank.jpg'));

/**
 * A route's body as sent: JSON, or for a multipart route (`files`) a form of the text fields and
 * the fixture image in every file field; a body that is no object goes as it is (multipart text).
 */
export function encodeBody(route: Route, body: unknown): { body: string | FormData | undefined; headers: Record<string, string> } {
  if (body === undefined) return { body: undefined, headers: {} };
  if (!route.files) return { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return {
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'multipart/form-data; boundary=zz' },
    };
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  for (const file of route.files)
    form.append(file.name, new Blob([new Uint8Array(FIXTURE_IMAGE)], { type: 'image/jpeg' }), `${file.name}.jpg`);
  return { body: form, headers: {} };
}

/** A REST request: the route's example and the caller's own records, then `override` slots set to other values. */
export function restCall(request: RestRequest, own: Refs, override: Map<RefSlot, string> = new Map(), fixed: FixedValues = {}) {
  const params: Record<string, string> = {};
  const query: Record<string, string> = {};
  const body: Record<string, unknown> = prepared(structuredClone(request.route.example ?? {}), fixed);
  for (const slot of request.slots) {
    const value = override.get(slot) ?? own[slot.kind][0];
    if (slot.at === 'param') params[slot.path[0]] = value;
    else if (slot.at === 'query') query[slot.path[0]] = value;
    else if (slot.at === 'body') body[slot.path[0]] = value;
  }
  const path = request.route.path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(params[name]));
  const search = new URLSearchParams(query).toString();
  return {
    method: request.route.method,
    url: `/v1${path}${search ? `?${search}` : ''}`,
    // a multipart route's form (stack.rest sends a FormData as it is)
    body: request.route.files ? encodeBody(request.route, body).body : request.route.body ? body : undefined,
    /** The body's fields before encoding (undefined when the route takes no body). */
    fields: request.route.body ? body : undefined,
    sent: [...Object.values(params), ...Object.values(query), ...stringsIn(body)],
  };
}

/** A GraphQL operation calling one root field with a selection of everything it returns. */
export function graphqlCall(request: GraphQLRequest, own: Refs, override: Map<RefSlot, string> = new Map(), fixed: FixedValues = {}) {
  const args = prepared(baseArguments(request, own), fixed);
  for (const slot of request.slots) {
    const value = override.get(slot) ?? own[slot.kind][0];
    // an optional filter input is created to hold the reference (`filter: { userId }`)
    setAt(args, slot.path, value);
  }
  const used = request.field.args.filter((a) => args[a.name] !== undefined);
  const definitions = used.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const call = used.map((a) => `${a.name}: $${a.name}`).join(', ');
  const keyword = request.rootType === 'Mutation' ? 'mutation' : 'query';
  return {
    query: `${keyword} Probe${definitions ? `(${definitions})` : ''} { ${request.field.name}${call ? `(${call})` : ''} ${selectionOf(getNamedType(request.field.type))} }`,
    variables: args,
    sent: stringsIn(args),
  };
}

/** The arguments a route sends for its example (a valid call), else sample values of the required ones. */
function baseArguments(request: GraphQLRequest, own: Refs): Record<string, any> {
  const route = routes.find((r) => routeRootField(r).field === request.field && (r.example || !r.body));
  if (route) {
    const params = Object.fromEntries(
      [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => [name, own[referenceKind(request.field, name) as RecordKind]?.[0] ?? 'x']),
    );
    const files = Object.fromEntries((route.files ?? []).map((f) => [f.name, new FilePart(`${f.name}.jpg`, 'image/jpeg', FIXTURE_IMAGE)]));
    const variables = route.variables({ params, query: {}, body: structuredClone(route.example ?? {}), files });
    const operation = parse(route.operation).definitions.find(
      (d): d is OperationDefinitionNode => d.kind === AstKind.OPERATION_DEFINITION,
    )!;
    const node = operation.selectionSet.selections[0] as FieldNode;
    return Object.fromEntries(
      (node.arguments ?? [])
        .map((a) => [a.name.value, valueFromASTUntyped(a.value, variables)] as const)
        .filter(([, value]) => value !== undefined),
    );
  }
  return Object.fromEntries(request.field.args.filter((a) => isNonNullType(a.type)).map((a) => [a.name, sampleValue(a.type)]));
}

/** Every string in a value (what a request sent, so an answer may echo it). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}
