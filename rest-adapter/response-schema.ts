/**
 * A route's response body schema (JSON Schema 2020-12, as OpenAPI 3.1 uses), derived from the two
 * things that make the body: the GraphQL operation's selection (types, nullability, enums) and the
 * route's own `result` and `response` mapping. Rather than describing those functions twice, they
 * run on a sample of the operation's data whose every leaf is a token naming its GraphQL type; the
 * body they build is then read back as a schema. One source of truth: the route itself.
 */

import {
  getNullableType,
  GraphQLEnumType,
  GraphQLScalarType,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  parse,
  type FragmentDefinitionNode,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { mapResponse, type ResponseMapping } from '../platform/rest/mapping.js';
import type { OperationData, Route, RouteInput } from '../platform/rest/route.js';

export type JsonSchema = Record<string, unknown>;

/** What a token stands for: a leaf's schema, or an object's nullability. */
interface Slot {
  schema: JsonSchema;
  nullable: boolean;
  /** The value sits in a list that may itself be null. */
  inNullableList: boolean;
  /** Present only sometimes (a type condition, `keepIf`, `withoutNulls`). */
  optional: boolean;
  /** Its enum lists the mapping's `values` (the token went through that function too: its case says nothing). */
  translated?: boolean;
}

/** Scalars by name; anything else (JSON) is any value. */
const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTimeISO: { type: 'string', format: 'date-time' },
  LocalDate: { type: 'string', format: 'date' },
  EmailAddress: { type: 'string' },
  PhoneNumber: { type: 'string' },
  URL: { type: 'string' },
  IP: { type: 'string' },
  CountryCode: { type: 'string' },
  Currency: { type: 'string' },
};

// Leaf tokens carry an upper-case letter so that a lower-cased enum (`lowercase`) shows.
const LEAF = /^~([Ll])(\d+)~$/;
const OBJECT_KEY = '~obj';

class Sampler {
  readonly slots: Slot[] = [];
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Map<string, FragmentDefinitionNode>,
  ) {}

  slot(schema: JsonSchema, nullable: boolean, inNullableList: boolean, optional: boolean): number {
    return this.slots.push({ schema, nullable, inNullableList, optional }) - 1;
  }

  value(type: GraphQLOutputType, selection: SelectionSetNode | undefined, optional: boolean, inNullableList = false): unknown {
    const nullable = !isNonNullType(type);
    const inner = getNullableType(type);
    if (isListType(inner)) return [this.value(inner.ofType, selection, optional, nullable)];
    if (selection && (isObjectType(inner) || isAbstractType(inner))) {
      const id = this.slot({}, nullable, inNullableList, optional);
      return { [`${OBJECT_KEY}${id}`]: true, ...this.fields(inner.name, selection, false) };
    }
    const schema = isEnumType(inner)
      ? enumSchema(inner)
      : SCALARS[(inner as GraphQLScalarType).name]
        ? { ...SCALARS[(inner as GraphQLScalarType).name] }
        : {};
    return `~L${this.slot(schema, nullable, inNullableList, optional)}~`;
  }

  /** The members a selection set gives an object of `typeName` (members of other type conditions: optional). */
  fields(typeName: string, selection: SelectionSetNode, optional: boolean): OperationData {
    const out: OperationData = {};
    const parent = this.schema.getType(typeName);
    for (const node of selection.selections) {
      if (node.kind === Kind.FIELD) {
        const key = node.alias?.value ?? node.name.value;
        if (node.name.value === '__typename') out[key] = `~L${this.slot({ type: 'string' }, false, false, optional)}~`;
        else if (isObjectType(parent) || isAbstractType(parent)) {
          const field =
            'getFields' in parent
              ? (parent as { getFields(): Record<string, { type: GraphQLOutputType }> }).getFields()[node.name.value]
              : undefined;
          if (field) out[key] = this.value(field.type, node.selectionSet, optional);
        }
      } else {
        const fragment = node.kind === Kind.FRAGMENT_SPREAD ? this.fragments.get(node.name.value) : node;
        if (!fragment) continue;
        const on = fragment.typeCondition?.name.value ?? typeName;
        Object.assign(out, this.fields(on, fragment.selectionSet, optional || on !== typeName));
      }
    }
    return out;
  }
}

function enumSchema(type: GraphQLEnumType): JsonSchema {
  return { type: 'string', enum: type.getValues().map((v) => v.name) };
}

/** The body schema of a route's successful answer; `undefined` when its result cannot be sampled. */
export function responseSchema(route: Route, schema: GraphQLSchema): JsonSchema | undefined {
  const document = parse(route.operation);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const root = operation.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
  const sampler = new Sampler(schema, fragments);
  const data = sampler.fields(root.name, operation.selectionSet, false);
  const input: RouteInput = {
    params: Object.fromEntries([...route.path.matchAll(/:(\w+)/g)].map(([, name]) => [name, name])),
    query: {},
    body: { ...route.example },
    files: {},
  };
  let body: unknown;
  try {
    body = route.result ? route.result(data, input) : Object.values(data)[0];
  } catch {
    return undefined;
  }
  let mapping: ResponseMapping | undefined = route.response;
  if (mapping) {
    markMapped(body, mapping, sampler.slots);
    // every member is sampled (its presence is documented as optional instead)
    mapping = { ...mapping, keepIf: undefined };
    body = mapResponse(body, mapping);
  }
  const result = schemaOf(body, sampler.slots);
  // a lookup's null is a 404, a payload's record is there when there are no user errors
  return route.notFound || operation.operation === 'mutation' ? withoutNull(result) : result;
}

/** Marks the slots that the mapping changes: members kept only sometimes, nulls dropped, references by id. */
function markMapped(body: unknown, { records, keepIf, withoutNulls, ids, values, anyCase }: ResponseMapping, slots: Slot[]): void {
  const root = records === undefined ? body : isObject(body) ? body[records] : undefined;
  const slotOf = (value: unknown) => slotIn(value, slots);
  for (const path of Object.keys(keepIf ?? {})) {
    for (const [holder, key] of holders(root, path)) {
      const slot = slotOf(holder[key]);
      if (slot) slot.optional = true;
    }
  }
  for (const path of withoutNulls ?? []) {
    for (const [holder, key] of holders(root, path)) {
      const object = holder[key];
      for (const member of Array.isArray(object) ? object : [object]) {
        if (!isObject(member)) continue;
        for (const value of Object.values(member)) {
          const slot = slotOf(value);
          if (slot?.nullable) Object.assign(slot, { nullable: false, optional: true });
        }
      }
    }
  }
  for (const [path, name] of Object.entries(values ?? {})) {
    for (const [holder, key] of holders(root, path)) {
      const slot = slotOf(holder[key]);
      if (slot && Array.isArray(slot.schema.enum)) {
        Object.assign(slot, { schema: { ...slot.schema, enum: slot.schema.enum.map((v: string) => name(v)) }, translated: true });
      }
    }
  }
  for (const path of anyCase ?? []) {
    for (const [holder, key] of holders(root, path)) {
      const slot = slotOf(holder[key]);
      if (slot && Array.isArray(slot.schema.enum)) {
        const spelled = slot.schema.enum.flatMap((v: string) => [v, v.toLowerCase()]);
        Object.assign(slot, { schema: { ...slot.schema, enum: [...new Set(spelled)] }, translated: true });
      }
    }
  }
  for (const path of ids ?? []) {
    for (const [holder, key] of holders(root, path)) {
      const object = holder[key];
      const [own, id] = [slotOf(object), isObject(object) ? slotOf(object.id) : undefined];
      if (own && id) id.nullable ||= own.nullable;
    }
  }
}

/** Each object holding the member at `path` (dots between levels; lists are transparent), with the member's key. */
function holders(value: unknown, path: string): Array<[OperationData, string]> {
  if (Array.isArray(value)) return value.flatMap((item) => holders(item, path));
  if (!isObject(value)) return [];
  const dot = path.indexOf('.');
  if (dot < 0) return path in value ? [[value, path]] : [];
  return holders(value[path.slice(0, dot)], path.slice(dot + 1));
}

/** The schema of a sampled body. */
function schemaOf(value: unknown, slots: Slot[]): JsonSchema {
  if (typeof value === 'string') {
    const leaf = LEAF.exec(value);
    if (!leaf) return { type: 'string' };
    const slot = slots[Number(leaf[2])];
    let schema = slot.schema;
    if (leaf[1] === 'l' && !slot.translated && Array.isArray(schema.enum))
      schema = { ...schema, enum: schema.enum.map((v: string) => v.toLowerCase()) };
    return slot.nullable ? nullable(schema) : schema;
  }
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (value === null) return { type: 'null' };
  if (Array.isArray(value)) {
    if (!value.length) return { type: 'array' };
    const schema = { type: 'array', items: schemaOf(value[0], slots) };
    return slotIn(value[0], slots)?.inNullableList ? nullable(schema) : schema;
  }
  if (!isObject(value)) return {};
  const markers = Object.keys(value).filter((key) => key.startsWith(OBJECT_KEY));
  const own = markers.length ? slots[Number(markers[0].slice(OBJECT_KEY.length))] : undefined;
  const entries = Object.entries(value).filter(([key]) => !key.startsWith(OBJECT_KEY));
  let schema: JsonSchema;
  if (entries.length && entries.every(([key]) => LEAF.test(key))) {
    // a list keyed by one of its members (`keyBy`): a map from that member's values
    const keys = schemaOf(entries[0][0], slots);
    schema = {
      type: 'object',
      ...(Array.isArray(keys.enum) ? { propertyNames: { enum: keys.enum.filter((v) => v !== null) } } : {}),
      additionalProperties: schemaOf(entries[0][1], slots),
    };
  } else {
    const required = entries.filter(([, member]) => !slotIn(member, slots)?.optional).map(([key]) => key);
    schema = {
      type: 'object',
      ...(required.length ? { required } : {}),
      properties: Object.fromEntries(entries.map(([key, member]) => [key, schemaOf(member, slots)])),
    };
  }
  return own?.nullable ? nullable(schema) : schema;
}

/** The slot of a sampled value (a list's: its items'). */
function slotIn(value: unknown, slots: Slot[]): Slot | undefined {
  if (typeof value === 'string') {
    const leaf = LEAF.exec(value);
    return leaf ? slots[Number(leaf[2])] : undefined;
  }
  if (Array.isArray(value)) return slotIn(value[0], slots);
  const key = isObject(value) ? Object.keys(value).find((k) => k.startsWith(OBJECT_KEY)) : undefined;
  return key ? slots[Number(key.slice(OBJECT_KEY.length))] : undefined;
}

/** The schema that also allows null. */
function nullable(schema: JsonSchema): JsonSchema {
  if (schema.type === undefined) return schema;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('null')) return schema;
  return {
    ...schema,
    type: [...types, 'null'],
    ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}),
  };
}

function withoutNull(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.type)) return schema;
  const types = schema.type.filter((t) => t !== 'null');
  return { ...schema, type: types.length === 1 ? types[0] : types };
}

const isObject = (value: unknown): value is OperationData => typeof value === 'object' && value !== null && !Array.isArray(value);
