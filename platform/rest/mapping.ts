/**
 * REST shapes of GraphQL values: a route declares its `response` mapping and the handler applies it;
 * routes reshape their input with the helpers. Every step keeps the order of keys, so a REST body
 * lists its members in the order of the operation's selection (fragments.ts).
 */

type JsonObject = Record<string, unknown>;

/**
 * How a route's records (the body, each item of a list) become REST records. Paths name record
 * members from the record's root, with dots between levels; lists are transparent (`channels.openedAt`
 * is the member of each channel).
 */
export interface ResponseMapping {
  /** Member of the body holding the records (a page's `data`); the body's other members stay as they are. */
  records?: string;
  /** `'snake'`: keys become snake_case (`latencyMs` → `latency_ms`) at every depth but inside `verbatim` members. */
  case?: 'snake';
  /** Names that are not the key's case conversion: `{ id: 'notification_id' }`. */
  rename?: Record<string, string>;
  /** Lists that become maps keyed by a member of their items, which then leaves the items: `{ channels: 'channel' }`. */
  keyBy?: Record<string, string>;
  /** Objects, or lists of them, whose null members are dropped. */
  withoutNulls?: readonly string[];
  /** Members kept only when the test on the GraphQL object holding them passes. */
  keepIf?: Record<string, (holder: JsonObject) => boolean>;
  /** JSON-scalar members, passed as GraphQL returned them: their keys are the client's, not the schema's. */
  verbatim?: readonly string[];
  /** Members holding a referenced object (`{ id }`, or null): the REST record has its id. */
  ids?: readonly string[];
  /** Object members whose own members take their place in the record, in their order (`matches.hit`). */
  flatten?: readonly string[];
  /** Enum members (or lists of them) whose REST values are the spec's lower case (GraphQL's are SCREAMING_CASE). */
  lowercase?: readonly string[];
  /** Enum members (or lists of them) whose REST values are other names: GraphQL's value → REST's (OpenAPI lists them too). */
  values?: Record<string, (value: string) => string>;
  /** Enum members answered in the request's own spelling (Form A upper case, Form B lower case): OpenAPI lists both. */
  anyCase?: readonly string[];
}

export const SNAKE_CASE: ResponseMapping = { case: 'snake' };

export function mapResponse(body: unknown, { records, ...mapping }: ResponseMapping): unknown {
  if (records === undefined) return mapRecord(body, mapping, '');
  if (!isObject(body)) return body;
  return { ...body, [records]: mapRecord(body[records], mapping, '') };
}

function mapRecord(value: unknown, mapping: ResponseMapping, path: string): unknown {
  if (Array.isArray(value)) return value.map((item) => mapRecord(item, mapping, path));
  if (!isObject(value)) return value;
  const entries: [string, unknown][] = [];
  for (const [key, member] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (mapping.keepIf?.[at] && !mapping.keepIf[at](value)) continue;
    let mapped = mapping.verbatim?.includes(at) ? member : mapRecord(member, mapping, at);
    if (mapping.ids?.includes(at)) mapped = isObject(mapped) ? mapped.id : null;
    if (mapping.lowercase?.includes(at)) mapped = lowerCased(mapped);
    if (mapping.values?.[at]) mapped = translated(mapped, mapping.values[at]);
    if (mapping.withoutNulls?.includes(at)) mapped = withoutNulls(mapped);
    const keyMember = mapping.keyBy?.[at];
    if (keyMember) mapped = keyedBy(mapped, restName(`${at}.${keyMember}`, mapping));
    if (mapping.flatten?.includes(at) && isObject(mapped)) entries.push(...Object.entries(mapped));
    else entries.push([restName(at, mapping), mapped]);
  }
  return Object.fromEntries(entries);
}

function restName(path: string, mapping: ResponseMapping): string {
  const key = path.slice(path.lastIndexOf('.') + 1);
  return mapping.rename?.[path] ?? (mapping.case === 'snake' ? snakeCase(key) : key);
}

/** A name conversion remembered: every REST body converts the same few hundred keys again (bounded: JSON members may be the client's). */
function remembered(convert: (key: string) => string): (key: string) => string {
  const names = new Map<string, string>();
  return (key) => {
    let name = names.get(key);
    if (name === undefined) {
      if (names.size >= 10_000) names.clear();
      names.set(key, (name = convert(key)));
    }
    return name;
  };
}

const snakeCase = remembered((key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
const camelCase = remembered((key) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));

const lowerCased = (value: unknown): unknown =>
  typeof value === 'string' ? value.toLowerCase() : Array.isArray(value) ? value.map(lowerCased) : value;

const translated = (value: unknown, name: (value: string) => string): unknown =>
  typeof value === 'string' ? name(value) : Array.isArray(value) ? value.map((v) => translated(v, name)) : value;

/** A REST enum value (or list of them) as GraphQL's SCREAMING_CASE one; anything else as sent, for GraphQL to judge. */
export const upperCased = (value: unknown): unknown =>
  typeof value === 'string' ? value.toUpperCase() : Array.isArray(value) ? value.map(upperCased) : value;

/** A snake_case body as GraphQL input: its own keys in camelCase, nested values as sent. */
export const camelKeys = (body: JsonObject): JsonObject =>
  Object.fromEntries(Object.entries(body).map(([key, value]) => [camelCase(key), value]));

/** The object with one member, when present, replaced by `map` of it (at its place in the key order). */
export const mapMember = (object: JsonObject, name: string, map: (value: unknown) => unknown): JsonObject =>
  Object.hasOwn(object, name) ? { ...object, [name]: map(object[name]) } : object;

/** `[{channel: 'sms', status}]` → `{sms: {status}}`; anything but a list is returned as is. */
function keyedBy(list: unknown, member: string): unknown {
  if (!Array.isArray(list)) return list;
  return Object.fromEntries(list.map(({ [member]: key, ...rest }: JsonObject) => [key, rest]));
}

/** An object without its null members (each object of a list). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== null));
}

/** An object with only the named members; anything else is returned as is, for GraphQL to reject. */
export function onlyMembers(value: unknown, names: readonly string[]): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => names.includes(key)));
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A REST value of the route's own enum in GraphQL's SCREAMING_CASE; any other value as sent, for GraphQL to judge. */
export const enumValue =
  (values: readonly string[]) =>
  (value: unknown): unknown =>
    typeof value === 'string' && values.includes(value) ? upperCased(value) : value;
