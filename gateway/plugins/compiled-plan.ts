import type { FetchNode, PlanNode, QueryPlan, QueryPlanSelectionNode, ResponsePath } from '@apollo/query-planner';
import {
  getNamedType,
  isAbstractType,
  isCompositeType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isSpecifiedScalarType,
  isUnionType,
  Kind,
  valueFromASTUntyped,
  type DirectiveNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
} from 'graphql';

/**
 * A query's plan and its answer's shape compiled once per operation text, run per request without
 * Apollo's executor (which rebuilds the operation, spans and a trace tree per request and shapes
 * the answer through federation-internals' objects). Same semantics as `executeQueryPlan` and
 * `computeResponse` of @apollo/gateway 2.x for what it takes: sequences, parallels, flattens and
 * fetches (entity fetches with `requires` included), the answer filtered to the client's selection
 * in its order, `__typename` filled in, leaf values checked, @skip / @include and the plan's
 * conditions read from the variables. Anything that would make Apollo answer
 * with errors — a subgraph's errors or failure, a null in a non-null field, a leaf value its type
 * refuses, an unknown `__typename` — gives up (`GiveUp`), and the caller lets Apollo run the query
 * (a query has no side effects). Not compiled (null): mutations, @defer, rewrites,
 * directives other than @skip / @include, introspection, abstract type conditions in `requires`.
 */
export class GiveUp extends Error {}

/** Sends one planned fetch with these variables: the subgraph's `data` (null when it answered none), or throws GiveUp. */
export type FetchRunner = (fetch: FetchNode, variables: Record<string, unknown>) => Promise<Record<string, unknown> | null>;

export interface CompiledQuery {
  /** The answer's `data`; throws GiveUp when Apollo must answer. */
  run(variables: Record<string, unknown>, send: FetchRunner): Promise<Record<string, unknown>>;
}

type Data = Record<string, unknown>;
/** One request's run: its variables as sent (what fetches forward), the same with the operation's defaults (what conditions read). */
interface Run {
  variables: Record<string, unknown>;
  values: Record<string, unknown>;
  send: FetchRunner;
}
type Step = (data: Data | Data[], run: Run) => Promise<void>;

const isObject = (value: unknown): value is Data => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A key that plain objects inherit (`constructor`, `toString`…) is read only when the object has it. */
const own = (object: Data, key: string): unknown => (Object.hasOwn(object, key) ? object[key] : undefined);
/** Writes a key as an own property, `__proto__` included. */
function put(object: Data, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/** @apollo/gateway's deepMerge: objects merged key by key, lists of the same length element by element. */
function deepMerge(target: Data, source: unknown): void {
  if (!isObject(source)) return;
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (value === undefined) continue;
    const existing = own(target, key);
    if (existing && isObject(value)) deepMerge(existing as Data, value);
    else if (Array.isArray(value) && Array.isArray(existing) && value.length === existing.length) {
      for (let i = 0; i < value.length; i++) {
        if (isObject(existing[i]) && isObject(value[i])) deepMerge(existing[i] as Data, value[i]);
        else existing[i] = value[i];
      }
    } else put(target, key, value);
  }
}

/** The objects a flatten's path points at (`@` walks every element of a list, the elements gathered in `into`). */
function flattenAt(value: unknown, path: ResponsePath, from = 0, into?: Data[]): Data | Data[] | null {
  if (value === undefined || value === null) return null;
  if (from === path.length) {
    if (!into) return value as Data | Data[];
    if (Array.isArray(value)) into.push(...(value as Data[]));
    else into.push(value as Data);
    return into;
  }
  const head = path[from];
  if (head === '@') {
    if (!Array.isArray(value)) throw new GiveUp();
    const gathered = into ?? [];
    for (const element of value) flattenAt(element, path, from + 1, gathered);
    return gathered;
  }
  if (typeof head !== 'string' || !isObject(value)) throw new GiveUp();
  return flattenAt(own(value, head), path, from + 1, into);
}

/** A fetch's `requires` as a function from an entity to its representation (null: not all inputs are there). */
function compileRequires(schema: GraphQLSchema, selections: readonly QueryPlanSelectionNode[]): ((source: unknown) => Data | null) | null {
  const parts: Array<(source: Data, into: Data) => boolean> = [];
  for (const selection of selections) {
    if (selection.kind === 'Field') {
      const key = selection.alias ?? selection.name;
      const inner = selection.selections ? compileRequires(schema, selection.selections) : undefined;
      if (inner === null) return null;
      parts.push((source, into) => {
        const value = own(source, key);
        if (value === undefined) return false;
        put(into, key, !inner ? value : Array.isArray(value) ? value.map((element) => inner(element)) : inner(value));
        return true;
      });
    } else {
      // Apollo skips an inline fragment without a type condition here
      if (!selection.typeCondition) continue;
      const condition = schema.getType(selection.typeCondition);
      if (!condition || isAbstractType(condition)) return null;
      const inner = compileRequires(schema, selection.selections);
      if (!inner) return null;
      const typename = selection.typeCondition;
      parts.push((source, into) => {
        if (source.__typename === typename) deepMerge(into, inner(source));
        return true;
      });
    }
  }
  return (source) => {
    if (source === null || source === undefined) return null;
    if (!isObject(source)) throw new GiveUp();
    const result: Data = {};
    for (const part of parts) if (!part(source, result)) return null;
    return result;
  };
}

function compileFetch(schema: GraphQLSchema, fetch: FetchNode): Step | null {
  if (fetch.operationKind !== 'query' || fetch.hasDefers) return null;
  if (fetch.inputRewrites?.length || fetch.outputRewrites?.length || fetch.contextRewrites?.length) return null;
  const requires = fetch.requires ? compileRequires(schema, fetch.requires) : undefined;
  if (requires === null) return null;
  const usages = fetch.variableUsages ?? [];
  return async (data, { variables, send }) => {
    const entities = Array.isArray(data) ? data.filter((entity) => entity !== null && entity !== undefined) : [data];
    if (!entities.length) return;
    const sent: Data = {};
    for (const name of usages) if (own(variables, name) !== undefined) sent[name] = variables[name];
    if (!requires) {
      const received = await send(fetch, sent);
      for (const entity of entities) deepMerge(entity, received);
      return;
    }
    const representations: Data[] = [];
    const targets: Data[] = [];
    for (const entity of entities) {
      const representation = requires(entity);
      if (representation?.__typename) {
        representations.push(representation);
        targets.push(entity);
      }
    }
    if (!representations.length) return;
    if ('representations' in sent) throw new GiveUp();
    const answered = await send(fetch, { ...sent, representations });
    if (!answered) return;
    const received = answered._entities;
    if (!Array.isArray(received) || received.length !== representations.length) throw new GiveUp();
    received.forEach((entity: unknown, i) => {
      if (isObject(entity) && !entity.__typename) entity.__typename = targets[i].__typename;
      deepMerge(targets[i], entity);
    });
  };
}

function compileNode(schema: GraphQLSchema, node: PlanNode): Step | null {
  switch (node.kind) {
    case 'Fetch':
      return compileFetch(schema, node);
    case 'Sequence':
    case 'Parallel': {
      const steps = node.nodes.map((child) => compileNode(schema, child));
      if (steps.some((step) => !step)) return null;
      const all = steps as Step[];
      return node.kind === 'Sequence'
        ? async (data, run) => {
            for (const step of all) await step(data, run);
          }
        : async (data, run) => void (await Promise.all(all.map((step) => step(data, run))));
    }
    case 'Flatten': {
      const inner = compileNode(schema, node.node);
      if (!inner) return null;
      const path = node.path;
      return async (data, run) => {
        const at = flattenAt(data, path);
        if (at) await inner(at, run);
      };
    }
    case 'Condition': {
      // evaluateCondition of @apollo/query-planner: the variable's value, else its default
      const [then, otherwise] = [node.ifClause, node.elseClause].map((branch) => (branch ? compileNode(schema, branch) : undefined));
      if (then === null || otherwise === null) return null;
      const variable = node.condition;
      return async (data, run) => {
        const branch = condition(run.values, variable) ? then : otherwise;
        if (branch) await branch(data, run);
      };
    }
    default:
      return null;
  }
}

/** A boolean variable's value as @skip/@include and plan conditions read it; anything else is Apollo's error. */
function condition(values: Record<string, unknown>, variable: string): boolean {
  const value = own(values, variable);
  if (typeof value !== 'boolean') throw new GiveUp();
  return value;
}

/** Whether @skip / @include drop this selection for these values. */
function skipped(directives: readonly DirectiveNode[] | undefined, values: Record<string, unknown>): boolean {
  for (const directive of directives ?? []) {
    const argument = directive.arguments?.find((a) => a.name.value === 'if')?.value;
    const on =
      argument?.kind === Kind.BOOLEAN
        ? argument.value
        : argument?.kind === Kind.VARIABLE
          ? condition(values, argument.name.value)
          : undefined;
    if (on === undefined) throw new GiveUp();
    if (directive.name.value === 'skip' ? on : !on) return true;
  }
  return false;
}

/** The variables @skip / @include read in these selections (not inside their fields' own selections). */
function conditionVariables(
  selections: readonly SelectionNode[],
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  into = new Set<string>(),
  seen = new Set<string>(),
): Set<string> {
  for (const selection of selections) {
    for (const directive of selection.directives ?? []) {
      const argument = directive.arguments?.find((a) => a.name.value === 'if')?.value;
      if (argument?.kind === Kind.VARIABLE) into.add(argument.name.value);
    }
    if (selection.kind === Kind.FIELD) continue;
    const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
    if (!fragment || (selection.kind === Kind.FRAGMENT_SPREAD && seen.has(selection.name.value))) continue;
    if (selection.kind === Kind.FRAGMENT_SPREAD) seen.add(selection.name.value);
    conditionVariables(fragment.selectionSet.selections, fragments, into, seen);
  }
  return into;
}

/** Completes one field's value as `computeResponse` would; throws GiveUp where Apollo would answer an error. */
type Complete = (value: unknown, values: Record<string, unknown>) => unknown;

interface Field {
  key: string;
  /** A key plain objects inherit (`constructor`…): read only as the object's own. */
  inherited: boolean;
  /** A `__typename` selection (its value is the object's type, not read as a field). */
  typename: boolean;
  complete?: Complete;
}

/**
 * The client's selection on objects of one static type: per runtime type (its `__typename`), the
 * fields that apply, fragments written out and fields of one response name merged, in the order
 * Apollo writes them.
 */
class Shape {
  /** Fields by runtime type and, when @skip / @include read variables here, by their values. */
  private readonly byType = new Map<string, Field[]>();
  private readonly conditions: string[];

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly selections: readonly SelectionNode[],
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  ) {
    this.conditions = [...conditionVariables(selections, fragments)];
  }

  /** The selection applied to one object of the subgraphs' data, of runtime type `typeName`. */
  apply(input: Data, typeName: string, values: Record<string, unknown>): Data {
    let key = typeName;
    for (const variable of this.conditions) key += condition(values, variable) ? '+' : '-';
    let fields = this.byType.get(key);
    if (!fields) {
      fields = this.fieldsFor(typeName, values);
      this.byType.set(key, fields);
    }
    const output: Data = {};
    for (const field of fields) {
      if (field.typename) {
        // computeResponse: the object's own __typename when it names a type of the API schema, else its runtime type's
        let name = own(input, field.key) ?? null;
        if (name === null && field.key !== '__typename') name = own(input, '__typename') ?? null;
        const type =
          typeof name === 'string' ? (this.schema.getType(name) ?? this.schema.getType(typeName)) : this.schema.getType(typeName);
        if (!isObjectType(type)) throw new GiveUp();
        output[field.key] = type.name;
      } else {
        // response names are never __proto__ (plainSelections): a plain write is an own property
        output[field.key] = field.complete!((field.inherited ? own(input, field.key) : input[field.key]) ?? null, values);
      }
    }
    return output;
  }

  private fieldsFor(typeName: string, values: Record<string, unknown>): Field[] {
    const runtime = this.schema.getType(typeName) as GraphQLCompositeType;
    const merged = new Map<string, SelectionNode[]>();
    const fieldNodes = new Map<string, { name: string }>();
    const collect = (selections: readonly SelectionNode[]) => {
      for (const selection of selections) {
        if (skipped(selection.directives, values)) continue;
        if (selection.kind === Kind.FIELD) {
          const key = (selection.alias ?? selection.name).value;
          if (!merged.has(key)) merged.set(key, []);
          merged.get(key)!.push(...(selection.selectionSet?.selections ?? []));
          fieldNodes.set(key, { name: selection.name.value });
          continue;
        }
        const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? this.fragments.get(selection.name.value)! : selection;
        const condition = fragment.typeCondition && this.schema.getType(fragment.typeCondition.name.value);
        // computeResponse's typeConditionApplies: the runtime type is the condition or one of its subtypes
        if (
          !condition ||
          condition === runtime ||
          (isAbstractType(condition) && !isUnionType(runtime) && this.schema.isSubType(condition, runtime))
        )
          collect(fragment.selectionSet.selections);
      }
    };
    collect(this.selections);
    return [...merged].map(([key, selections]) => {
      const name = fieldNodes.get(key)!.name;
      const inherited = key in Object.prototype;
      if (name === '__typename') return { key, inherited, typename: true };
      // a union has no fields of its own: only __typename is selected on it outside fragments
      const definition = 'getFields' in runtime ? runtime.getFields()[name] : undefined;
      if (!definition) throw new GiveUp();
      return { key, inherited, typename: false, complete: completer(this.schema, definition.type, selections, this.fragments) };
    });
  }
}

function completer(
  schema: GraphQLSchema,
  type: GraphQLOutputType,
  selections: readonly SelectionNode[],
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): Complete {
  if (isNonNullType(type)) {
    const inner = completer(schema, type.ofType, selections, fragments);
    return (value, values) => {
      const completed = inner(value, values);
      if (completed === null) throw new GiveUp();
      return completed;
    };
  }
  if (isListType(type)) {
    const inner = completer(schema, type.ofType, selections, fragments);
    return (value, values) => {
      if (value === null) return null;
      if (!Array.isArray(value)) throw new GiveUp();
      return value.map((element) => inner(element ?? null, values));
    };
  }
  if (isCompositeType(type)) {
    const shape = new Shape(schema, selections, fragments);
    return (value, values) => {
      if (value === null) return null;
      if (!isObject(value)) throw new GiveUp();
      const typename = value.__typename;
      if (typename !== undefined && typeof typename !== 'string') throw new GiveUp();
      if (typename) {
        // an unknown or inaccessible type: Apollo answers null and an error
        const runtime = schema.getType(typename);
        if (!runtime || !isCompositeType(runtime)) throw new GiveUp();
        return shape.apply(value, typename, values);
      }
      return shape.apply(value, type.name, values);
    };
  }
  // leaves: isValidLeafValue of @apollo/federation-internals
  const named = getNamedType(type);
  if (!isSpecifiedScalarType(named) && !isEnumType(named)) return (value) => value;
  const accepts = isEnumType(named)
    ? (value: unknown) => typeof value === 'string' && named.getValue(value) !== undefined
    : (value: unknown) => {
        if (typeof value === 'boolean') return named.name === 'Boolean';
        if (typeof value === 'number' && Number.isFinite(value))
          return named.name === 'Float' || ((named.name === 'Int' || named.name === 'ID') && /^-?\d+$/.test(String(value)));
        if (typeof value === 'string') return named.name === 'String' || named.name === 'ID';
        return false;
      };
  return (value) => {
    if (value === null) return null;
    if (!accepts(value)) throw new GiveUp();
    return value;
  };
}

/** Whether the operation can be shaped here: no directive but @skip / @include, no introspection but `__typename`, no `__proto__` response name. */
function plainSelections(
  selections: readonly SelectionNode[],
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): boolean {
  return selections.every((selection) => {
    if (!(selection.directives ?? []).every((d) => (d.name.value === 'skip' || d.name.value === 'include') && d.arguments?.length === 1))
      return false;
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      if ((name.startsWith('__') && name !== '__typename') || (selection.alias ?? selection.name).value === '__proto__') return false;
      return !selection.selectionSet || plainSelections(selection.selectionSet.selections, fragments, seen);
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) return plainSelections(selection.selectionSet.selections, fragments, seen);
    const fragment = fragments.get(selection.name.value);
    if (!fragment || fragment.directives?.length) return false;
    if (seen.has(fragment.name.value)) return true;
    seen.add(fragment.name.value);
    return plainSelections(fragment.selectionSet.selections, fragments, seen);
  });
}

/** The query's plan and shape compiled, or null when Apollo must run it (see GiveUp). */
export function compileQuery(
  apiSchema: GraphQLSchema,
  plan: QueryPlan,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): CompiledQuery | null {
  const root = apiSchema.getQueryType();
  if (operation.operation !== 'query' || !root || operation.directives?.length) return null;
  if (!plainSelections(operation.selectionSet.selections, fragments)) return null;
  if (plan.node?.kind === 'Subscription') return null;
  const step = plan.node ? compileNode(apiSchema, plan.node) : async () => undefined;
  if (!step) return null;
  const shape = new Shape(apiSchema, operation.selectionSet.selections, fragments);
  // computeResponse reads conditions from the variables over the operation's defaults
  const defaults: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    if (definition.defaultValue) defaults[definition.variable.name.value] = valueFromASTUntyped(definition.defaultValue);
  }
  return {
    async run(variables, send) {
      const data: Data = {};
      const values = { ...defaults, ...variables };
      await step(data, { variables, values, send });
      return shape.apply(data, root.name, values);
    },
  };
}
