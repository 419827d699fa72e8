/**
 * Shared state and types of the Cypher compiler (cypher.compiler.ts): the options and result of a
 * compilation, the bindings a variable can denote (node, relationship, relationship list, value),
 * compiled expressions, query stages (FROM items, WHERE conditions, scope), the per-compilation
 * state (SQL parameter values, generated aliases, caller parameters) and the small helpers that
 * render FROM/WHERE and re-expose bindings through a subquery alias.
 */
import type { Position } from './cypher.ast.js';
import { CypherError } from './cypher.error.js';
import type { Label, RelType, ValueType } from './cypher.schema.js';

export interface CompileOptions {
  organizationId: string;
  environment: string;
  params?: Record<string, unknown>;
  /** Rows returned at most; the statement fetches one more to report truncation. */
  maxRows: number;
  /** Upper bound (and default) of variable-length relationships. */
  maxHops: number;
}

export interface CompiledQuery {
  sql: string;
  values: unknown[];
  /** Result keys, in order. */
  columns: string[];
}

export type NodeB = { kind: 'node'; labels: Label[]; label: string; key: string };
export type RelB = {
  kind: 'rel';
  types: RelType[];
  type: string;
  src: string;
  dst: string;
  srcLabel: string;
  dstLabel: string;
  eid: string;
  /** unprefixed edge identity when the type is static */
  pk: string | null;
  props: Record<string, string>;
};
export type RelsB = { kind: 'rels'; types: RelType[]; json: string; eids: string };
type ValB = { kind: 'value'; sql: string; type: ValueType };
export type Binding = NodeB | RelB | RelsB | ValB;
export type Scope = Map<string, Binding>;

export interface Compiled {
  sql: string;
  type: ValueType | 'node' | 'rel' | 'rels';
  binding?: NodeB | RelB | RelsB;
  aggregate: boolean;
}

export interface FromItem {
  sql: string;
  join: 'cross' | 'lateral' | 'left';
}

export interface Stage {
  from: FromItem[];
  where: string[];
  scope: Scope;
}

export interface ExprContext {
  scope: Scope;
  aggregates: 'forbidden' | 'allowed';
  inAggregate?: boolean;
  /** original variables referenced (ORDER BY after DISTINCT checks) */
  refs?: Set<string>;
  /** projected aliases (ORDER BY) */
  aliases?: Map<string, Compiled>;
  where: string;
}

export const STATIC_LABEL = (l: string) => `'${l}'::text`;

export const semantic = (reason: string, pos: Position | null) => new CypherError(reason, pos, 'semantic');
export const unsupported = (what: string, pos: Position | null) => new CypherError(`Unsupported syntax: ${what}`, pos, 'unsupported');

/** Per-compilation state: the statement's parameter values ($1, $2 are the tenant) and alias counter. */
export class CompileState {
  readonly values: unknown[];
  private aliasCount = 0;
  private readonly params: Record<string, unknown>;

  constructor(readonly opts: CompileOptions) {
    this.values = [opts.organizationId, opts.environment];
    this.params = opts.params ?? {};
  }

  alias(prefix: string): string {
    return `${prefix}${++this.aliasCount}`;
  }

  tenancy(alias: string): string {
    return `${alias}.organization_id = $1 and ${alias}.environment = $2`;
  }

  param(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }

  paramValue(name: string, pos: Position): unknown {
    if (!Object.hasOwn(this.params, name)) throw semantic(`Missing parameter $${name}`, pos);
    return this.params[name];
  }
}

export function renderFrom(from: FromItem[]): string {
  if (!from.length) return '';
  const items = [...from];
  if (items[0].join !== 'cross') items.unshift({ sql: '(select 1) as one', join: 'cross' });
  return (
    ' from ' +
    items
      .map((item, i) => {
        if (i === 0) return item.sql;
        if (item.join === 'cross') return `cross join ${item.sql}`;
        if (item.join === 'lateral') return `cross join lateral ${item.sql}`;
        return `left join lateral ${item.sql} on true`;
      })
      .join(' ')
  );
}

export function renderWhere(where: string[]): string {
  return where.length ? ` where ${where.map((w) => `(${w})`).join(' and ')}` : '';
}

/** Adds a binding's components to `columns` and returns the binding as seen through `alias`. */
export function project(b: Binding, columns: string[], alias: string): Binding {
  const col = (sql: string) => {
    const name = `c${columns.length}`;
    columns.push(`${sql} as ${name}`);
    return `${alias}.${name}`;
  };
  switch (b.kind) {
    case 'node':
      return { kind: 'node', labels: b.labels, key: col(b.key), label: b.labels.length === 1 ? STATIC_LABEL(b.labels[0]) : col(b.label) };
    case 'rel': {
      const props: Record<string, string> = {};
      for (const [k, v] of Object.entries(b.props)) props[k] = col(v);
      return {
        kind: 'rel',
        types: b.types,
        type: col(b.type),
        src: col(b.src),
        dst: col(b.dst),
        srcLabel: col(b.srcLabel),
        dstLabel: col(b.dstLabel),
        eid: col(b.eid),
        pk: b.pk ? col(b.pk) : null,
        props,
      };
    }
    case 'rels':
      return { kind: 'rels', types: b.types, json: col(b.json), eids: col(b.eids) };
    case 'value':
      return { kind: 'value', type: b.type, sql: col(b.sql) };
  }
}

/** A variable's binding as an expression. */
export function fromBinding(b: Binding): Compiled {
  switch (b.kind) {
    case 'node':
      return { sql: b.key, type: 'node', binding: b, aggregate: false };
    case 'rel':
      return { sql: b.eid, type: 'rel', binding: b, aggregate: false };
    case 'rels':
      return { sql: b.json, type: 'rels', binding: b, aggregate: false };
    case 'value':
      return { sql: b.sql, type: b.type, aggregate: false };
  }
}
