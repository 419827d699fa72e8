import type {
  Expr,
  MatchClause,
  NodePattern,
  Pattern,
  Position,
  ProjectionClause,
  PropertyEntry,
  Query,
  RelPattern,
} from './cypher.ast.js';
import { CypherError } from './cypher.parser.js';
import {
  ALL_REL_PROPERTIES,
  LABELS,
  NODE_TABLES,
  REL_TABLES,
  REL_TYPES,
  type Label,
  type RelType,
  type ValueType,
} from './cypher.schema.js';

/**
 * Compiles the parsed read-only openCypher subset to ONE parameterised SQL statement over the
 * risk graph tables. Nothing the caller wrote reaches the SQL text: values become parameters,
 * names are checked against the schema (cypher.schema.ts) and replaced by generated aliases.
 *
 * - node occurrences adjacent to a relationship take their key from the relationship's table
 *   (no node-table join); isolated nodes scan their label's table (a UNION ALL for unlabeled ones);
 * - a single-type directed relationship reads its table; several types, untyped or undirected ones
 *   read a UNION ALL of oriented edges;
 * - variable-length relationships are a recursive walk in a LATERAL subquery from the already
 *   bound end (patterns are reversed when only their last node is anchored), with edge
 *   uniqueness, depth ≤ the hop bound;
 * - OPTIONAL MATCH is a LEFT JOIN LATERAL; WITH is a subquery stage; aggregates group by the
 *   non-aggregated items; every table read is restricted to the caller's organization and
 *   environment ($1, $2).
 */

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

type NodeB = { kind: 'node'; labels: Label[]; label: string; key: string };
type RelB = {
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
type RelsB = { kind: 'rels'; types: RelType[]; json: string; eids: string };
type ValB = { kind: 'value'; sql: string; type: ValueType };
type Binding = NodeB | RelB | RelsB | ValB;
type Scope = Map<string, Binding>;

interface Compiled {
  sql: string;
  type: ValueType | 'node' | 'rel' | 'rels';
  binding?: NodeB | RelB | RelsB;
  aggregate: boolean;
}

interface FromItem {
  sql: string;
  join: 'cross' | 'lateral' | 'left';
}

interface Stage {
  from: FromItem[];
  where: string[];
  scope: Scope;
}

interface ExprContext {
  scope: Scope;
  aggregates: 'forbidden' | 'allowed';
  inAggregate?: boolean;
  /** original variables referenced (ORDER BY after DISTINCT checks) */
  refs?: Set<string>;
  /** projected aliases (ORDER BY) */
  aliases?: Map<string, Compiled>;
  where: string;
}

const AGGREGATES = ['count', 'sum', 'avg', 'min', 'max', 'collect'];
const STATIC_LABEL = (l: string) => `'${l}'::text`;

const semantic = (reason: string, pos: Position | null) => new CypherError(reason, pos, 'semantic');
const unsupported = (what: string, pos: Position | null) => new CypherError(`Unsupported syntax: ${what}`, pos, 'unsupported');

export function compileCypher(query: Query, opts: CompileOptions): CompiledQuery {
  return new Compiler(opts).compile(query);
}

class Compiler {
  private readonly values: unknown[];
  private aliasCount = 0;
  private anonymous = 0;
  private readonly params: Record<string, unknown>;

  constructor(private readonly opts: CompileOptions) {
    this.values = [opts.organizationId, opts.environment];
    this.params = opts.params ?? {};
  }

  private alias(prefix: string): string {
    return `${prefix}${++this.aliasCount}`;
  }

  private tenancy(alias: string): string {
    return `${alias}.organization_id = $1 and ${alias}.environment = $2`;
  }

  private param(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }

  // ---- stages ---------------------------------------------------------------------------------
  compile(query: Query): CompiledQuery {
    const clauses = query.clauses;
    const last = clauses[clauses.length - 1];
    if (last.kind !== 'return') throw semantic('A query must end with RETURN', last.pos);
    let stage: Stage = { from: [], where: [], scope: new Map() };
    for (let i = 0; i < clauses.length; i++) {
      const clause = clauses[i];
      if (clause.kind === 'return' && i !== clauses.length - 1) throw semantic('RETURN must be the last clause', clauses[i + 1].pos);
      if (clause.kind === 'match') {
        if (clause.optional) this.optionalMatch(stage, clause);
        else this.match(stage, clause);
      } else if (clause.kind === 'with') {
        stage = this.withStage(stage, clause);
      } else {
        return this.returnStage(stage, clause);
      }
    }
    throw semantic('A query must end with RETURN', last.pos);
  }

  private renderFrom(from: FromItem[]): string {
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

  private renderWhere(where: string[]): string {
    return where.length ? ` where ${where.map((w) => `(${w})`).join(' and ')}` : '';
  }

  // ---- MATCH ----------------------------------------------------------------------------------
  private match(stage: Stage, clause: MatchClause): void {
    const rels: Array<RelB | RelsB> = [];
    for (const p of clause.patterns) this.pattern(stage, p, rels);
    this.uniqueness(stage, rels);
    if (clause.where) stage.where.push(this.condition(clause.where, stage.scope, 'WHERE'));
  }

  private optionalMatch(outer: Stage, clause: MatchClause): void {
    const inner: Stage = { from: [], where: [], scope: new Map(outer.scope) };
    const rels: Array<RelB | RelsB> = [];
    for (const p of clause.patterns) this.pattern(inner, p, rels);
    this.uniqueness(inner, rels);
    if (clause.where) inner.where.push(this.condition(clause.where, inner.scope, 'WHERE'));
    const alias = this.alias('o');
    const columns: string[] = [];
    for (const [name, binding] of inner.scope) {
      if (outer.scope.get(name) === binding) continue;
      outer.scope.set(name, this.project(binding, columns, alias));
    }
    if (!columns.length) columns.push('1 as c0');
    outer.from.push({
      sql: `(select ${columns.join(', ')}${this.renderFrom(inner.from)}${this.renderWhere(inner.where)}) ${alias}`,
      join: 'left',
    });
  }

  /** Adds a binding's components to `columns` and returns the binding as seen through `alias`. */
  private project(b: Binding, columns: string[], alias: string): Binding {
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

  private anchored(stage: Stage, n: NodePattern): boolean {
    return (n.variable !== null && stage.scope.has(n.variable)) || n.properties.length > 0;
  }

  private pattern(stage: Stage, p: Pattern, clauseRels: Array<RelB | RelsB>): void {
    let nodes = p.nodes;
    let rels = p.rels;
    // walk from the anchored end: reverse when only the last node is anchored
    if (rels.length && !this.anchored(stage, nodes[0]) && this.anchored(stage, nodes[nodes.length - 1])) {
      nodes = [...nodes].reverse();
      rels = [...rels].reverse().map((r) => ({ ...r, direction: r.direction === 'out' ? 'in' : r.direction === 'in' ? 'out' : 'both' }));
    }
    if (!rels.length) {
      this.standaloneNode(stage, nodes[0]);
      return;
    }
    let left: NodeB | null = this.boundNode(stage, nodes[0]);
    for (let i = 0; i < rels.length; i++) {
      const r = rels[i];
      if (r.variable && stage.scope.has(r.variable))
        throw unsupported(`re-using the bound variable ${r.variable} in a relationship pattern`, r.pos);
      if (r.range) {
        if (!left) left = this.standaloneNode(stage, nodes[i]);
        const walk = this.varLength(stage, r, left);
        clauseRels.push(walk.rels);
        if (r.variable) stage.scope.set(r.variable, walk.rels);
        left = this.connectNode(stage, nodes[i + 1], walk.end);
      } else {
        const edge = this.singleRel(stage, r);
        clauseRels.push(edge.rel);
        if (r.variable) stage.scope.set(r.variable, edge.rel);
        if (left) this.equate(stage, left, edge.a);
        else left = this.connectNode(stage, nodes[i], edge.a);
        left = this.connectNode(stage, nodes[i + 1], edge.b);
      }
    }
  }

  private labelsOf(n: NodePattern): Label[] | null {
    if (!n.labels.length) return null;
    for (const l of n.labels) {
      if (!(LABELS as readonly string[]).includes(l.name))
        throw semantic(`Unknown label ${l.name}; labels are ${LABELS.join(', ')}`, l.pos);
    }
    const distinct = [...new Set(n.labels.map((l) => l.name as Label))];
    // a node has exactly one label: two different ones match nothing
    return distinct.length === 1 ? distinct : [];
  }

  /** A node occurrence whose variable is already bound: checks its kind, applies labels/properties. */
  private boundNode(stage: Stage, n: NodePattern): NodeB | null {
    if (!n.variable) return null;
    const b = stage.scope.get(n.variable);
    if (!b) return null;
    if (b.kind !== 'node') throw semantic(`Variable ${n.variable} is not a node`, n.pos);
    this.constrainNode(stage, b, n);
    return b;
  }

  private constrainNode(stage: Stage, b: NodeB, n: NodePattern): void {
    const labels = this.labelsOf(n);
    if (labels) {
      const possible = b.labels.filter((l) => labels.includes(l));
      if (!possible.length) stage.where.push('false');
      else if (b.labels.length > 1) stage.where.push(`${b.label} = any(array[${possible.map((l) => `'${l}'`).join(', ')}])`);
    }
    this.nodeProperties(stage, b, n.properties);
  }

  private nodeProperties(stage: Stage, b: NodeB, props: PropertyEntry[]): void {
    for (const p of props) {
      const left = this.nodeProperty(b, p.key, p.pos);
      const right = this.expr(p.value, { scope: stage.scope, aggregates: 'forbidden', where: 'a property map' });
      stage.where.push(this.comparison('=', left, right, p.pos));
    }
  }

  private nodeProperty(b: NodeB, key: string, pos: Position): Compiled {
    const hasId = b.labels.some((l) => NODE_TABLES[l].property === 'id');
    const hasAddress = b.labels.includes('IP');
    if (key === 'id' && hasId) {
      return { sql: hasAddress ? `case when ${b.label} <> 'IP' then ${b.key} end` : b.key, type: 'string', aggregate: false };
    }
    if (key === 'address' && hasAddress) {
      return { sql: b.labels.length > 1 ? `case when ${b.label} = 'IP' then ${b.key} end` : b.key, type: 'string', aggregate: false };
    }
    const what = b.labels.length === 1 ? b.labels[0] : 'This node';
    throw semantic(`${what} has no property ${key}; Account and Device have id, IP has address`, pos);
  }

  /** A node pattern with no relationship (or the start of a variable-length walk). */
  private standaloneNode(stage: Stage, n: NodePattern): NodeB {
    const bound = this.boundNode(stage, n);
    if (bound) return bound;
    const labels = this.labelsOf(n) ?? [...LABELS];
    const alias = this.alias('n');
    let b: NodeB;
    if (labels.length === 1) {
      const t = NODE_TABLES[labels[0]];
      stage.from.push({ sql: `${t.table} ${alias}`, join: 'cross' });
      b = { kind: 'node', labels, label: STATIC_LABEL(labels[0]), key: `${alias}.${t.key}` };
    } else {
      const members = (labels.length ? labels : [...LABELS]).map(
        (l) => `select '${l}'::text as label, ${NODE_TABLES[l].key} as key, organization_id, environment from ${NODE_TABLES[l].table}`,
      );
      stage.from.push({ sql: `(${members.join(' union all ')}) ${alias}`, join: 'cross' });
      b = { kind: 'node', labels: labels.length ? labels : [...LABELS], label: `${alias}.label`, key: `${alias}.key` };
      if (!labels.length) stage.where.push('false');
    }
    stage.where.push(this.tenancy(alias));
    this.nodeProperties(stage, b, n.properties);
    if (n.variable) stage.scope.set(n.variable, b);
    return b;
  }

  /** Binds (or constrains) the node at a relationship end. */
  private connectNode(stage: Stage, n: NodePattern, end: NodeB): NodeB {
    const bound = this.boundNode(stage, n);
    if (bound) {
      this.equate(stage, bound, end);
      return bound;
    }
    const labels = this.labelsOf(n);
    let possible = end.labels;
    if (labels) {
      possible = end.labels.filter((l) => labels.includes(l));
      if (!possible.length) stage.where.push('false');
      else if (end.labels.length > 1) stage.where.push(`${end.label} = any(array[${possible.map((l) => `'${l}'`).join(', ')}])`);
    }
    const b: NodeB = {
      kind: 'node',
      labels: possible.length ? possible : end.labels,
      label: possible.length === 1 ? STATIC_LABEL(possible[0]) : end.label,
      key: end.key,
    };
    this.nodeProperties(stage, b, n.properties);
    if (n.variable) stage.scope.set(n.variable, b);
    return b;
  }

  private equate(stage: Stage, a: NodeB, b: NodeB): void {
    const common = a.labels.filter((l) => b.labels.includes(l));
    if (!common.length) {
      stage.where.push('false');
      return;
    }
    stage.where.push(`${a.key} = ${b.key}`);
    if (a.labels.length > 1 || b.labels.length > 1) stage.where.push(`${a.label} = ${b.label}`);
  }

  private relTypes(r: RelPattern): RelType[] {
    if (!r.types.length) return [...REL_TYPES];
    for (const t of r.types) {
      if (!(REL_TYPES as readonly string[]).includes(t.name))
        throw semantic(`Unknown relationship type ${t.name}; types are ${REL_TYPES.join(', ')}`, t.pos);
    }
    return [...new Set(r.types.map((t) => t.name as RelType))];
  }

  /** SELECT members of oriented edges (a = where the walk comes from, b = where it goes). */
  private edgeMembers(types: RelType[], direction: RelPattern['direction']): string[] {
    const members: string[] = [];
    for (const t of types) {
      const table = REL_TABLES[t];
      const props = Object.entries(ALL_REL_PROPERTIES)
        .map(([name, p]) => (table.properties[name] ? `${table.properties[name].column} as ${name}` : `null::${p.sqlType} as ${name}`))
        .join(', ');
      const orientations: Array<'out' | 'in'> = direction === 'both' ? ['out', 'in'] : [direction];
      for (const o of orientations) {
        const [a, aLabel, b, bLabel] =
          o === 'out' ? [table.src, table.srcLabel, table.dst, table.dstLabel] : [table.dst, table.dstLabel, table.src, table.srcLabel];
        members.push(
          `select '${t}'::text as type, ${table.src} as src, '${table.srcLabel}'::text as src_label, ${table.dst} as dst, '${table.dstLabel}'::text as dst_label, ` +
            `${a} as a_end, '${aLabel}'::text as a_label, ${b} as b_end, '${bLabel}'::text as b_label, ${props}, ` +
            `'${table.prefix}:' || ${table.pk(table.table)} as eid, organization_id, environment from ${table.table}`,
        );
      }
    }
    return members;
  }

  private endLabels(types: RelType[], direction: RelPattern['direction'], side: 'a' | 'b'): Label[] {
    const labels = new Set<Label>();
    for (const t of types) {
      const { srcLabel, dstLabel } = REL_TABLES[t];
      if (direction === 'both') {
        labels.add(srcLabel);
        labels.add(dstLabel);
      } else if ((direction === 'out') === (side === 'a')) labels.add(srcLabel);
      else labels.add(dstLabel);
    }
    return [...labels];
  }

  private singleRel(stage: Stage, r: RelPattern): { rel: RelB; a: NodeB; b: NodeB } {
    const types = this.relTypes(r);
    const alias = this.alias('r');
    let rel: RelB;
    let a: NodeB;
    let b: NodeB;
    if (types.length === 1 && r.direction !== 'both') {
      const t = REL_TABLES[types[0]];
      stage.from.push({ sql: `${t.table} ${alias}`, join: 'cross' });
      const props = Object.fromEntries(Object.entries(t.properties).map(([name, p]) => [name, `${alias}.${p.column}`]));
      rel = {
        kind: 'rel',
        types,
        type: `'${types[0]}'::text`,
        src: `${alias}.${t.src}`,
        dst: `${alias}.${t.dst}`,
        srcLabel: STATIC_LABEL(t.srcLabel),
        dstLabel: STATIC_LABEL(t.dstLabel),
        eid: `('${t.prefix}:' || ${t.pk(alias)})`,
        pk: t.pk(alias),
        props,
      };
      const src: NodeB = { kind: 'node', labels: [t.srcLabel], label: STATIC_LABEL(t.srcLabel), key: rel.src };
      const dst: NodeB = { kind: 'node', labels: [t.dstLabel], label: STATIC_LABEL(t.dstLabel), key: rel.dst };
      [a, b] = r.direction === 'out' ? [src, dst] : [dst, src];
    } else {
      stage.from.push({ sql: `(${this.edgeMembers(types, r.direction).join(' union all ')}) ${alias}`, join: 'cross' });
      const props = Object.fromEntries(
        Object.keys(ALL_REL_PROPERTIES)
          .filter((name) => types.some((t) => REL_TABLES[t].properties[name]))
          .map((name) => [name, `${alias}.${name}`]),
      );
      rel = {
        kind: 'rel',
        types,
        type: `${alias}.type`,
        src: `${alias}.src`,
        dst: `${alias}.dst`,
        srcLabel: `${alias}.src_label`,
        dstLabel: `${alias}.dst_label`,
        eid: `${alias}.eid`,
        pk: null,
        props,
      };
      const node = (side: 'a' | 'b'): NodeB => {
        const labels = this.endLabels(types, r.direction, side);
        return {
          kind: 'node',
          labels,
          label: labels.length === 1 ? STATIC_LABEL(labels[0]) : `${alias}.${side}_label`,
          key: `${alias}.${side}_end`,
        };
      };
      a = node('a');
      b = node('b');
    }
    stage.where.push(this.tenancy(alias));
    for (const p of r.properties) {
      const left = this.relProperty(rel, p.key, p.pos);
      const right = this.expr(p.value, { scope: stage.scope, aggregates: 'forbidden', where: 'a property map' });
      stage.where.push(this.comparison('=', left, right, p.pos));
    }
    return { rel, a, b };
  }

  private relProperty(rel: RelB, key: string, pos: Position): Compiled {
    const sql = rel.props[key];
    if (!sql) {
      const names = [...new Set(rel.types.flatMap((t) => Object.keys(REL_TABLES[t].properties)))];
      throw semantic(
        `${rel.types.length === 1 ? rel.types[0] : 'This relationship'} has no property ${key}; it has ${names.join(', ')}`,
        pos,
      );
    }
    return { sql, type: ALL_REL_PROPERTIES[key].type, aggregate: false };
  }

  private relJson(alias: string, types: RelType[]): string {
    const props = Object.keys(ALL_REL_PROPERTIES).filter((name) => types.some((t) => REL_TABLES[t].properties[name]));
    const body = `jsonb_build_object('_type', ${alias}.type, '_from', ${alias}.src, '_to', ${alias}.dst${props.map((p) => `, '${p}', ${alias}.${p}`).join('')})`;
    return types.length === 1 ? body : `jsonb_strip_nulls(${body})`;
  }

  private varLength(stage: Stage, r: RelPattern, left: NodeB): { rels: RelsB; end: NodeB } {
    const types = this.relTypes(r);
    if (r.properties.length) throw unsupported('property maps on variable-length relationships', r.properties[0].pos);
    const min = r.range!.min ?? 1;
    const max = r.range!.max ?? this.opts.maxHops;
    if (max > this.opts.maxHops) throw semantic(`Variable-length relationships may span at most ${this.opts.maxHops} hops`, r.pos);
    if (min > max) throw semantic('The lower bound of a variable-length relationship exceeds its upper bound', r.pos);
    const alias = this.alias('v');
    const json = r.variable ? `w.rels || jsonb_build_array(${this.relJson('e', types)})` : 'w.rels';
    const walk =
      `(with recursive w(node, node_label, depth, eids, rels) as (` +
      `select ${left.key}::text, ${left.label}::text, 0, array[]::text[], '[]'::jsonb ` +
      `union all ` +
      `select e.b_end, e.b_label, w.depth + 1, w.eids || e.eid, ${json} ` +
      `from w join (${this.edgeMembers(types, r.direction).join(' union all ')}) e on e.a_end = w.node and e.a_label = w.node_label ` +
      `where e.organization_id = $1 and e.environment = $2 and w.depth < ${max} and not (e.eid = any(w.eids))` +
      `) select node, node_label, eids, rels from w where depth >= ${min}) ${alias}`;
    stage.from.push({ sql: walk, join: 'lateral' });
    const labels = [...new Set([...this.endLabels(types, r.direction, 'b'), ...(min === 0 ? left.labels : [])])];
    const end: NodeB = {
      kind: 'node',
      labels,
      label: labels.length === 1 ? STATIC_LABEL(labels[0]) : `${alias}.node_label`,
      key: `${alias}.node`,
    };
    return { rels: { kind: 'rels', types, json: `${alias}.rels`, eids: `${alias}.eids` }, end };
  }

  /** Relationship isomorphism: a relationship is matched at most once per MATCH clause. */
  private uniqueness(stage: Stage, rels: Array<RelB | RelsB>): void {
    for (let i = 0; i < rels.length; i++) {
      for (let j = i + 1; j < rels.length; j++) {
        const [x, y] = [rels[i], rels[j]];
        if (!x.types.some((t) => y.types.includes(t))) continue;
        if (x.kind === 'rel' && y.kind === 'rel') {
          if (x.pk && y.pk && x.types.length === 1 && y.types.length === 1) stage.where.push(`${x.pk} <> ${y.pk}`);
          else stage.where.push(`${x.eid} <> ${y.eid}`);
        } else if (x.kind === 'rel' && y.kind === 'rels') stage.where.push(`not (${x.eid} = any(${y.eids}))`);
        else if (x.kind === 'rels' && y.kind === 'rel') stage.where.push(`not (${y.eid} = any(${x.eids}))`);
        else stage.where.push(`not (${(x as RelsB).eids} && ${(y as RelsB).eids})`);
      }
    }
  }

  // ---- WITH / RETURN --------------------------------------------------------------------------
  private items(stage: Stage, clause: ProjectionClause): Array<{ name: string; expr: Compiled; pos: Position; variable: boolean }> {
    if (clause.items === null) {
      const visible = [...stage.scope.entries()].filter(([name]) => !name.startsWith(' '));
      if (!visible.length) throw semantic(`${clause.kind.toUpperCase()} * needs at least one variable in scope`, clause.pos);
      return visible.map(([name, b]) => ({ name, expr: this.fromBinding(b), pos: clause.pos, variable: true }));
    }
    const names = new Set<string>();
    return clause.items.map((item) => {
      const expr = this.expr(item.expr, { scope: stage.scope, aggregates: 'allowed', where: clause.kind.toUpperCase() });
      const isVariable = item.expr.kind === 'variable';
      const name = item.alias ?? (isVariable ? (item.expr as { name: string }).name : item.text);
      if (clause.kind === 'with' && !item.alias && !isVariable) throw semantic('Expressions in WITH must be aliased (use AS)', item.pos);
      if (names.has(name)) throw semantic(`Multiple result columns named ${name}`, item.pos);
      names.add(name);
      return { name, expr, pos: item.pos, variable: isVariable };
    });
  }

  private fromBinding(b: Binding): Compiled {
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

  /** GROUP BY components of a non-aggregated item. */
  private groupKeys(c: Compiled): string[] {
    const b = c.binding;
    if (!b) return [c.sql];
    if (b.kind === 'node') return b.labels.length > 1 ? [b.key, b.label] : [b.key];
    if (b.kind === 'rel') return [b.eid, b.type, b.src, b.dst, b.srcLabel, b.dstLabel, ...(b.pk ? [b.pk] : []), ...Object.values(b.props)];
    return [b.json, b.eids];
  }

  private skipLimit(e: Expr | null, what: string, scope: Scope): number | null {
    if (!e) return null;
    let value: unknown;
    if (e.kind === 'literal') value = e.value;
    else if (e.kind === 'negate' && e.arg.kind === 'literal' && typeof e.arg.value === 'number') value = -e.arg.value;
    else if (e.kind === 'param') value = this.paramValue(e.name, e.pos);
    else throw semantic(`${what} takes an integer or a parameter`, e.pos);
    void scope;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw semantic(`${what} must be a non-negative integer`, e.pos);
    return value;
  }

  private orderBy(
    stage: Stage,
    clause: ProjectionClause,
    items: Array<{ name: string; expr: Compiled; pos: Position }>,
    grouped: boolean,
  ): Array<{ sql: string; descending: boolean }> {
    const aliases = new Map(items.map((i) => [i.name, i.expr]));
    return clause.orderBy.map((o) => {
      const refs = new Set<string>();
      const c = this.expr(o.expr, { scope: stage.scope, aggregates: grouped ? 'allowed' : 'forbidden', aliases, refs, where: 'ORDER BY' });
      if ((clause.distinct || grouped) && refs.size) {
        const itemForms = new Set((clause.items ?? []).map((i) => canonical(i.expr)));
        if (!itemForms.has(canonical(o.expr))) {
          throw semantic('After DISTINCT or an aggregation, ORDER BY may only use the projected values', o.expr.pos);
        }
      }
      const sql = c.binding?.kind === 'node' ? c.binding.key : c.binding?.kind === 'rel' ? c.binding.eid : c.sql;
      return { sql, descending: o.descending };
    });
  }

  private withStage(stage: Stage, clause: ProjectionClause): Stage {
    const items = this.items(stage, clause);
    const grouped = items.some((i) => i.expr.aggregate);
    const alias = this.alias('s');
    const columns: string[] = [];
    const next: Scope = new Map();
    for (const item of items) {
      const binding: Binding = item.expr.binding ?? { kind: 'value', sql: item.expr.sql, type: item.expr.type as ValueType };
      next.set(item.name, this.project(binding, columns, alias));
    }
    const order = this.orderBy(stage, clause, items, grouped);
    const orderCols = order.map((o, i) => {
      columns.push(`${o.sql} as ord${i}`);
      return `ord${i} ${o.descending ? 'desc' : 'asc'}`;
    });
    const groupBy = grouped ? items.filter((i) => !i.expr.aggregate).flatMap((i) => this.groupKeys(i.expr)) : [];
    const skip = this.skipLimit(clause.skip, 'SKIP', stage.scope);
    const limit = this.skipLimit(clause.limit, 'LIMIT', stage.scope);
    let sql =
      `select ${clause.distinct ? 'distinct ' : ''}${columns.join(', ')}` +
      this.renderFrom(stage.from) +
      this.renderWhere(stage.where) +
      (groupBy.length ? ` group by ${groupBy.join(', ')}` : '');
    if (orderCols.length || skip !== null || limit !== null) {
      sql = `select * from (${sql}) q${orderCols.length ? ` order by ${orderCols.join(', ')}` : ''}${limit !== null ? ` limit ${limit}` : ''}${skip !== null ? ` offset ${skip}` : ''}`;
    }
    const result: Stage = { from: [{ sql: `(${sql}) ${alias}`, join: 'cross' }], where: [], scope: next };
    if (clause.where) result.where.push(this.condition(clause.where, next, 'WITH … WHERE'));
    return result;
  }

  private returnStage(stage: Stage, clause: ProjectionClause): CompiledQuery {
    const items = this.items(stage, clause);
    const grouped = items.some((i) => i.expr.aggregate);
    const columns = items.map((item, i) => `${this.toJson(item.expr)} as c${i}`);
    const order = this.orderBy(stage, clause, items, grouped);
    const orderCols = order.map((o, i) => `ord${i} ${o.descending ? 'desc' : 'asc'}`);
    const inner = [...columns, ...order.map((o, i) => `${o.sql} as ord${i}`)];
    const groupBy = grouped ? items.filter((i) => !i.expr.aggregate).flatMap((i) => this.groupKeys(i.expr)) : [];
    const skip = this.skipLimit(clause.skip, 'SKIP', stage.scope);
    const limit = this.skipLimit(clause.limit, 'LIMIT', stage.scope);
    const cap = Math.min(limit ?? Infinity, this.opts.maxRows + 1);
    const body =
      `select ${clause.distinct ? 'distinct ' : ''}${inner.join(', ')}` +
      this.renderFrom(stage.from) +
      this.renderWhere(stage.where) +
      (groupBy.length ? ` group by ${groupBy.join(', ')}` : '');
    let sql =
      `select ${items.map((_, i) => `q.c${i}`).join(', ')} from (${body}) q` +
      (orderCols.length ? ` order by ${orderCols.join(', ')}` : '') +
      ` limit ${cap}` +
      (skip !== null ? ` offset ${skip}` : '');
    // a query reading no table (RETURN 1) still binds the tenant parameters: give them their types
    if (!/\$1\b/.test(sql)) sql = `with tenant as (select $1::uuid as organization_id, $2::text as environment) ${sql}`;
    return { sql, values: this.values, columns: items.map((i) => i.name) };
  }

  /** The JSON a result cell carries. */
  private toJson(c: Compiled): string {
    const b = c.binding;
    if (!b) return c.type === 'null' ? `'null'::jsonb` : c.type === 'list' ? c.sql : `to_jsonb(${c.sql})`;
    if (b.kind === 'node') return this.nodeJson(b);
    if (b.kind === 'rel') {
      const props = Object.entries(b.props);
      const body = `jsonb_build_object('_type', ${b.type}, '_from', ${b.src}, '_to', ${b.dst}${props.map(([k, v]) => `, '${k}', ${v}`).join('')})`;
      return `case when ${b.eid} is null then null else ${b.types.length === 1 ? body : `jsonb_strip_nulls(${body})`} end`;
    }
    return b.json;
  }

  private nodeJson(b: NodeB): string {
    const obj = (label: Label) => `jsonb_build_object('_label', '${label}', '${NODE_TABLES[label].property}', ${b.key})`;
    if (b.labels.length === 1) return `case when ${b.key} is null then null else ${obj(b.labels[0])} end`;
    return `case when ${b.key} is null then null when ${b.label} = 'IP' then ${obj('IP')} else jsonb_build_object('_label', ${b.label}, 'id', ${b.key}) end`;
  }

  // ---- expressions ----------------------------------------------------------------------------
  private condition(e: Expr, scope: Scope, where: string): string {
    const c = this.expr(e, { scope, aggregates: 'forbidden', where });
    if (!['boolean', 'null', 'any'].includes(c.type)) throw semantic(`${where} needs a boolean condition`, e.pos);
    return c.sql;
  }

  private paramValue(name: string, pos: Position): unknown {
    if (!Object.hasOwn(this.params, name)) throw semantic(`Missing parameter $${name}`, pos);
    return this.params[name];
  }

  private expr(e: Expr, ctx: ExprContext): Compiled {
    switch (e.kind) {
      case 'literal':
        return this.literal(e.value, e.integer);
      case 'param':
        return this.paramExpr(e.name, e.pos);
      case 'variable': {
        const aliased = ctx.aliases?.get(e.name);
        if (aliased) return aliased;
        const b = ctx.scope.get(e.name);
        if (!b) throw semantic(`Variable ${e.name} is not defined`, e.pos);
        ctx.refs?.add(e.name);
        return this.fromBinding(b);
      }
      case 'property': {
        const target = this.expr(e.target, ctx);
        if (target.binding?.kind === 'node') return { ...this.nodeProperty(target.binding, e.key, e.keyPos), aggregate: target.aggregate };
        if (target.binding?.kind === 'rel') return { ...this.relProperty(target.binding, e.key, e.keyPos), aggregate: target.aggregate };
        throw unsupported('property access on values other than nodes and relationships', e.pos);
      }
      case 'list': {
        const items = e.items.map((i) => this.expr(i, ctx));
        return {
          sql: `jsonb_build_array(${items.map((i) => this.toJson(i)).join(', ')})`,
          type: 'list',
          aggregate: items.some((i) => i.aggregate),
        };
      }
      case 'not': {
        const arg = this.expr(e.arg, ctx);
        this.expectType(arg, ['boolean'], 'NOT', e.pos);
        return { sql: `(not ${arg.sql})`, type: 'boolean', aggregate: arg.aggregate };
      }
      case 'negate': {
        const arg = this.expr(e.arg, ctx);
        this.expectType(arg, ['integer', 'number'], 'unary -', e.pos);
        return { sql: `(-${arg.sql})`, type: arg.type, aggregate: arg.aggregate };
      }
      case 'isNull': {
        const arg = this.expr(e.arg, ctx);
        const sql = arg.binding?.kind === 'node' ? arg.binding.key : arg.binding?.kind === 'rel' ? arg.binding.eid : arg.sql;
        return { sql: `(${sql} is ${e.negated ? 'not ' : ''}null)`, type: 'boolean', aggregate: arg.aggregate };
      }
      case 'binary':
        return this.binary(e, ctx);
      case 'call':
        return this.call(e, ctx);
    }
  }

  private literal(value: string | number | boolean | null, integer: boolean): Compiled {
    if (value === null) return { sql: 'null', type: 'null', aggregate: false };
    if (typeof value === 'boolean') return { sql: value ? 'true' : 'false', type: 'boolean', aggregate: false };
    if (typeof value === 'string') return { sql: this.param(value, 'text'), type: 'string', aggregate: false };
    return integer
      ? { sql: this.param(value, 'bigint'), type: 'integer', aggregate: false }
      : { sql: this.param(value, 'float8'), type: 'number', aggregate: false };
  }

  private paramExpr(name: string, pos: Position): Compiled {
    const value = this.paramValue(name, pos);
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return this.literal(value, false);
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw semantic(`Parameter $${name} must be a finite number`, pos);
      return this.literal(value, Number.isInteger(value));
    }
    if (Array.isArray(value)) {
      if (!value.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) {
        throw semantic(`Parameter $${name} must be a list of strings, numbers or booleans`, pos);
      }
      return { sql: this.param(JSON.stringify(value), 'jsonb'), type: 'list', aggregate: false };
    }
    throw semantic(`Parameter $${name} must be a string, number, boolean, null or a list of them`, pos);
  }

  private expectType(c: Compiled, types: ValueType[], what: string, pos: Position): void {
    if (c.type === 'null' || c.type === 'any') return;
    if (!types.includes(c.type as ValueType)) throw semantic(`${what} expects ${types.join(' or ')}, not ${c.type}`, pos);
  }

  /** `left op right` for scalars (with date/time coercion of string literals) or entities. */
  private comparison(op: string, left: Compiled, right: Compiled, pos: Position): string {
    const entity = (c: Compiled) => c.type === 'node' || c.type === 'rel' || c.type === 'rels';
    if (entity(left) || entity(right)) {
      if (op !== '=' && op !== '<>') throw semantic(`Nodes and relationships can only be compared with = or <>`, pos);
      if (left.type !== right.type) {
        if (left.type === 'null' || right.type === 'null') return 'null';
        throw semantic(`Cannot compare ${left.type} with ${right.type}`, pos);
      }
      const [a, b] = [left.binding!, right.binding!];
      let eq: string;
      if (a.kind === 'node' && b.kind === 'node') {
        if (!a.labels.some((l) => b.labels.includes(l))) eq = 'false';
        else
          eq = a.labels.length > 1 || b.labels.length > 1 ? `(${a.key} = ${b.key} and ${a.label} = ${b.label})` : `(${a.key} = ${b.key})`;
      } else if (a.kind === 'rel' && b.kind === 'rel') eq = `(${a.eid} = ${b.eid})`;
      else eq = `(${(a as RelsB).eids} = ${(b as RelsB).eids})`;
      return op === '=' ? eq : `(not ${eq})`;
    }
    let [l, r] = [left.sql, right.sql];
    const numeric = (t: string) => t === 'integer' || t === 'number';
    const lt = left.type;
    const rt = right.type;
    if (lt === 'datetime' && rt === 'string') r = `(${r})::timestamptz`;
    else if (rt === 'datetime' && lt === 'string') l = `(${l})::timestamptz`;
    else if (lt === 'list' || rt === 'list') {
      if (op !== '=' && op !== '<>') throw semantic('Lists can only be compared with = or <>', pos);
      l = lt === 'list' ? l : `to_jsonb(${l})`;
      r = rt === 'list' ? r : `to_jsonb(${r})`;
    } else if (!(lt === rt || lt === 'null' || rt === 'null' || lt === 'any' || rt === 'any' || (numeric(lt) && numeric(rt)))) {
      throw semantic(`Cannot compare ${lt} with ${rt}`, pos);
    }
    return `(${l} ${op} ${r})`;
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>, ctx: ExprContext): Compiled {
    const left = this.expr(e.left, ctx);
    if (e.op === 'in') {
      const indexable = this.inParameterList(e, left);
      if (indexable) return indexable;
    }
    const right = this.expr(e.right, ctx);
    const aggregate = left.aggregate || right.aggregate;
    const bool = (sql: string): Compiled => ({ sql, type: 'boolean', aggregate });
    switch (e.op) {
      case 'and':
      case 'or':
      case 'xor':
        this.expectType(left, ['boolean'], e.op.toUpperCase(), e.pos);
        this.expectType(right, ['boolean'], e.op.toUpperCase(), e.pos);
        return bool(e.op === 'xor' ? `((${left.sql}) <> (${right.sql}))` : `(${left.sql} ${e.op} ${right.sql})`);
      case '=':
      case '<>':
      case '<':
      case '<=':
      case '>':
      case '>=':
        return bool(this.comparison(e.op, left, right, e.pos));
      case 'in': {
        if (right.type !== 'list' && right.type !== 'null' && right.type !== 'rels')
          throw semantic('IN expects a list on its right', e.pos);
        if (left.binding) throw unsupported('IN with nodes or relationships', e.pos);
        return bool(`(${right.sql} @> to_jsonb(${left.sql}))`);
      }
      case 'startsWith':
      case 'endsWith':
      case 'contains': {
        this.expectType(left, ['string'], e.op, e.pos);
        this.expectType(right, ['string'], e.op, e.pos);
        const sql =
          e.op === 'startsWith'
            ? `starts_with(${left.sql}, ${right.sql})`
            : e.op === 'endsWith'
              ? `(right(${left.sql}, length(${right.sql})) = ${right.sql})`
              : `(strpos(${left.sql}, ${right.sql}) > 0)`;
        return bool(sql);
      }
      case '+':
        if (left.type === 'string' || right.type === 'string') {
          this.expectType(left, ['string', 'integer', 'number'], '+', e.pos);
          this.expectType(right, ['string', 'integer', 'number'], '+', e.pos);
          return { sql: `(${left.sql}::text || ${right.sql}::text)`, type: 'string', aggregate };
        }
        if (left.type === 'list' || right.type === 'list') {
          const asList = (c: Compiled) => (c.type === 'list' ? c.sql : `jsonb_build_array(${this.toJson(c)})`);
          return { sql: `(${asList(left)} || ${asList(right)})`, type: 'list', aggregate };
        }
      // falls through
      case '-':
      case '*':
      case '/':
      case '%': {
        this.expectType(left, ['integer', 'number'], e.op, e.pos);
        this.expectType(right, ['integer', 'number'], e.op, e.pos);
        const type: ValueType =
          left.type === 'number' || right.type === 'number'
            ? 'number'
            : left.type === 'integer' && right.type === 'integer'
              ? 'integer'
              : 'any';
        // PostgreSQL has no % for double precision: the remainder of numerics, as a double
        if (e.op === '%' && type !== 'integer')
          return { sql: `mod((${left.sql})::numeric, (${right.sql})::numeric)::float8`, type: 'number', aggregate };
        return { sql: `(${left.sql} ${e.op} ${right.sql})`, type, aggregate };
      }
    }
  }

  /** `x IN $list` with a list parameter of x's scalar type: `x = any($n::text[])` (index friendly). */
  private inParameterList(e: Extract<Expr, { kind: 'binary' }>, left: Compiled): Compiled | null {
    if (e.right.kind !== 'param' || left.binding) return null;
    const list = this.paramValue(e.right.name, e.right.pos);
    if (!Array.isArray(list) || !list.length) return null;
    const kinds = new Set(list.map((v) => (v === null ? 'null' : typeof v)));
    if (kinds.size !== 1) return null;
    const cast =
      left.type === 'string' && kinds.has('string')
        ? 'text[]'
        : (left.type === 'integer' || left.type === 'number') && kinds.has('number')
          ? 'float8[]'
          : null;
    if (!cast) return null;
    return { sql: `(${left.sql} = any(${this.param(list, cast)}))`, type: 'boolean', aggregate: left.aggregate };
  }

  private call(e: Extract<Expr, { kind: 'call' }>, ctx: ExprContext): Compiled {
    const name = e.name.toLowerCase();
    if (AGGREGATES.includes(name)) return this.aggregate(e, name, ctx);
    if (e.distinct) throw semantic(`DISTINCT is only allowed in aggregations`, e.pos);
    const args = e.args.map((a) => this.expr(a, ctx));
    const aggregate = args.some((a) => a.aggregate);
    const arity = (n: number | [number, number]) => {
      const [lo, hi] = typeof n === 'number' ? [n, n] : n;
      if (args.length < lo || args.length > hi) throw semantic(`${e.name}() takes ${lo === hi ? lo : `${lo} to ${hi}`} argument(s)`, e.pos);
    };
    const scalar = (sql: string, type: ValueType): Compiled => ({ sql, type, aggregate });
    switch (name) {
      case 'type': {
        arity(1);
        if (args[0].binding?.kind !== 'rel') throw semantic('type() expects a relationship', e.pos);
        return scalar(args[0].binding.type, 'string');
      }
      case 'labels': {
        arity(1);
        if (args[0].binding?.kind !== 'node') throw semantic('labels() expects a node', e.pos);
        return scalar(`case when ${args[0].binding.key} is null then null else jsonb_build_array(${args[0].binding.label}) end`, 'list');
      }
      case 'startnode':
      case 'endnode': {
        arity(1);
        const b = args[0].binding;
        if (b?.kind !== 'rel') throw semantic(`${e.name}() expects a relationship`, e.pos);
        const types = b.types;
        const labels = [...new Set(types.map((t) => (name === 'startnode' ? REL_TABLES[t].srcLabel : REL_TABLES[t].dstLabel)))];
        const node: NodeB = {
          kind: 'node',
          labels,
          label: labels.length === 1 ? STATIC_LABEL(labels[0]) : name === 'startnode' ? b.srcLabel : b.dstLabel,
          key: name === 'startnode' ? b.src : b.dst,
        };
        return { sql: node.key, type: 'node', binding: node, aggregate };
      }
      case 'size':
      case 'length': {
        arity(1);
        const a = args[0];
        if (a.type === 'string') return scalar(`length(${a.sql})`, 'integer');
        if (a.type === 'list' || a.type === 'rels') return scalar(`jsonb_array_length(${a.sql})`, 'integer');
        throw semantic(`${e.name}() expects a list, a path of relationships or a string`, e.pos);
      }
      case 'tolower':
      case 'toupper':
        arity(1);
        this.expectType(args[0], ['string'], e.name, e.pos);
        return scalar(`${name === 'tolower' ? 'lower' : 'upper'}(${args[0].sql})`, 'string');
      case 'trim':
        arity(1);
        this.expectType(args[0], ['string'], e.name, e.pos);
        return scalar(`btrim(${args[0].sql})`, 'string');
      case 'coalesce': {
        arity([1, 16]);
        if (args.some((a) => a.binding)) throw unsupported('coalesce() of nodes or relationships', e.pos);
        const types = new Set(args.map((a) => a.type).filter((t) => t !== 'null'));
        if (types.size > 1 && !(types.size === 2 && types.has('integer') && types.has('number')))
          throw semantic('coalesce() arguments must have one type', e.pos);
        return scalar(`coalesce(${args.map((a) => a.sql).join(', ')})`, (types.size ? [...types][0] : 'null') as ValueType);
      }
      case 'abs':
      case 'ceil':
      case 'floor':
      case 'round':
      case 'sign':
      case 'sqrt': {
        arity(1);
        this.expectType(args[0], ['integer', 'number'], e.name, e.pos);
        const fn = { abs: 'abs', ceil: 'ceil', floor: 'floor', round: 'round', sign: 'sign', sqrt: 'sqrt' }[name]!;
        return scalar(`${fn}(${args[0].sql}::float8)`, 'number');
      }
      case 'tostring':
        arity(1);
        if (args[0].binding) throw semantic('toString() expects a value', e.pos);
        return scalar(args[0].type === 'datetime' ? `(to_jsonb(${args[0].sql}) #>> '{}')` : `(${args[0].sql})::text`, 'string');
      case 'tointeger':
      case 'tofloat': {
        arity(1);
        const a = args[0];
        const integer = name === 'tointeger';
        if (a.type === 'string') {
          return scalar(
            integer
              ? `case when ${a.sql} ~ '^\\s*-?[0-9]+\\s*$' then (${a.sql})::bigint end`
              : `case when ${a.sql} ~ '^\\s*-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?\\s*$' then (${a.sql})::float8 end`,
            integer ? 'integer' : 'number',
          );
        }
        this.expectType(a, ['integer', 'number', 'string'], e.name, e.pos);
        return scalar(integer ? `trunc(${a.sql})::bigint` : `(${a.sql})::float8`, integer ? 'integer' : 'number');
      }
      case 'datetime': {
        arity([0, 1]);
        if (!args.length) return scalar('now()', 'datetime');
        this.expectType(args[0], ['string', 'datetime'], e.name, e.pos);
        return scalar(`(${args[0].sql})::timestamptz`, 'datetime');
      }
      case 'exists':
        throw unsupported('exists(); use IS NOT NULL', e.pos);
      case 'id':
      case 'elementid':
        throw unsupported(`${e.name}(); nodes are identified by their id (Account, Device) or address (IP) property`, e.pos);
      default:
        throw semantic(`Unknown function ${e.name}()`, e.pos);
    }
  }

  private aggregate(e: Extract<Expr, { kind: 'call' }>, name: string, ctx: ExprContext): Compiled {
    if (ctx.aggregates === 'forbidden') throw semantic(`Aggregations are not allowed in ${ctx.where}`, e.pos);
    if (ctx.inAggregate) throw semantic('Aggregations cannot be nested', e.pos);
    const inner: ExprContext = { ...ctx, inAggregate: true };
    if (e.star) {
      if (name !== 'count') throw semantic(`${e.name}(*) is not allowed; only count(*)`, e.pos);
      return { sql: 'count(*)', type: 'integer', aggregate: true };
    }
    if (e.args.length !== 1) throw semantic(`${e.name}() takes one argument`, e.pos);
    const arg = this.expr(e.args[0], inner);
    const distinct = e.distinct ? 'distinct ' : '';
    const identity = (c: Compiled): string => {
      const b = c.binding;
      if (b?.kind === 'node') return b.labels.length > 1 ? `(${b.label} || ':' || ${b.key})` : b.key;
      if (b?.kind === 'rel') return b.eid;
      return c.sql;
    };
    switch (name) {
      case 'count':
        return { sql: `count(${distinct}${identity(arg)})`, type: 'integer', aggregate: true };
      case 'sum':
        this.expectType(arg, ['integer', 'number'], 'sum()', e.pos);
        return { sql: `coalesce(sum(${distinct}${arg.sql}), 0)`, type: arg.type === 'integer' ? 'any' : 'number', aggregate: true };
      case 'avg':
        this.expectType(arg, ['integer', 'number'], 'avg()', e.pos);
        return { sql: `avg(${distinct}${arg.sql})::float8`, type: 'number', aggregate: true };
      case 'min':
      case 'max':
        if (arg.binding) throw semantic(`${e.name}() expects values, not nodes or relationships`, e.pos);
        return { sql: `${name}(${arg.sql})`, type: arg.type, aggregate: true };
      case 'collect': {
        const json = this.toJson(arg);
        const present = arg.binding?.kind === 'node' ? arg.binding.key : arg.binding?.kind === 'rel' ? arg.binding.eid : arg.sql;
        return {
          sql: `coalesce(jsonb_agg(${distinct}${json}) filter (where ${present} is not null), '[]'::jsonb)`,
          type: 'list',
          aggregate: true,
        };
      }
    }
    throw semantic(`Unknown aggregation ${e.name}()`, e.pos);
  }
}

/** A position-free rendering of an expression, to recognise ORDER BY expressions equal to items. */
export function canonical(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return JSON.stringify(e.value);
    case 'param':
      return `$${e.name}`;
    case 'variable':
      return e.name;
    case 'property':
      return `${canonical(e.target)}.${e.key}`;
    case 'list':
      return `[${e.items.map(canonical).join(',')}]`;
    case 'not':
      return `NOT ${canonical(e.arg)}`;
    case 'negate':
      return `-${canonical(e.arg)}`;
    case 'isNull':
      return `${canonical(e.arg)} IS ${e.negated ? 'NOT ' : ''}NULL`;
    case 'binary':
      return `(${canonical(e.left)} ${e.op} ${canonical(e.right)})`;
    case 'call':
      return `${e.name.toLowerCase()}(${e.distinct ? 'DISTINCT ' : ''}${e.star ? '*' : e.args.map(canonical).join(',')})`;
  }
}
