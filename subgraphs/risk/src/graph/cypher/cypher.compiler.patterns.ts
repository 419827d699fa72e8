/**
 * Pattern compiler: MATCH and OPTIONAL MATCH clauses. Adds each pattern's table reads, joins and
 * conditions to the current stage and binds its variables:
 *
 * - node occurrences adjacent to a relationship take their key from the relationship's table
 *   (no node-table join); isolated nodes scan their label's table (a UNION ALL for unlabeled ones);
 * - a single-type directed relationship reads its table; several types, untyped or undirected ones
 *   read a UNION ALL of oriented edges;
 * - variable-length relationships are a recursive walk in a LATERAL subquery from the already
 *   bound end (patterns are reversed when only their last node is anchored), with edge
 *   uniqueness, depth ≤ the hop bound;
 * - OPTIONAL MATCH is a LEFT JOIN LATERAL; relationships are matched at most once per clause.
 */
import type { MatchClause, NodePattern, Pattern, PropertyEntry, RelPattern } from './cypher.ast.js';
import {
  STATIC_LABEL,
  project,
  renderFrom,
  renderWhere,
  semantic,
  unsupported,
  type CompileState,
  type NodeB,
  type RelB,
  type RelsB,
  type Stage,
} from './cypher.compiler.context.js';
import type { ExpressionCompiler } from './cypher.compiler.expressions.js';
import { ALL_REL_PROPERTIES, LABELS, NODE_TABLES, REL_TABLES, REL_TYPES, type Label, type RelType } from './cypher.schema.js';

export class PatternCompiler {
  constructor(
    private readonly state: CompileState,
    private readonly exprs: ExpressionCompiler,
  ) {}

  match(stage: Stage, clause: MatchClause): void {
    const rels: Array<RelB | RelsB> = [];
    for (const p of clause.patterns) this.pattern(stage, p, rels);
    this.uniqueness(stage, rels);
    if (clause.where) stage.where.push(this.exprs.condition(clause.where, stage.scope, 'WHERE'));
  }

  optionalMatch(outer: Stage, clause: MatchClause): void {
    const inner: Stage = { from: [], where: [], scope: new Map(outer.scope) };
    const rels: Array<RelB | RelsB> = [];
    for (const p of clause.patterns) this.pattern(inner, p, rels);
    this.uniqueness(inner, rels);
    if (clause.where) inner.where.push(this.exprs.condition(clause.where, inner.scope, 'WHERE'));
    const alias = this.state.alias('o');
    const columns: string[] = [];
    for (const [name, binding] of inner.scope) {
      if (outer.scope.get(name) === binding) continue;
      outer.scope.set(name, project(binding, columns, alias));
    }
    if (!columns.length) columns.push('1 as c0');
    outer.from.push({
      sql: `(select ${columns.join(', ')}${renderFrom(inner.from)}${renderWhere(inner.where)}) ${alias}`,
      join: 'left',
    });
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
      const left = this.exprs.nodeProperty(b, p.key, p.pos);
      const right = this.exprs.expr(p.value, { scope: stage.scope, aggregates: 'forbidden', where: 'a property map' });
      stage.where.push(this.exprs.comparison('=', left, right, p.pos));
    }
  }

  /** A node pattern with no relationship (or the start of a variable-length walk). */
  private standaloneNode(stage: Stage, n: NodePattern): NodeB {
    const bound = this.boundNode(stage, n);
    if (bound) return bound;
    const labels = this.labelsOf(n) ?? [...LABELS];
    const alias = this.state.alias('n');
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
    stage.where.push(this.state.tenancy(alias));
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
    const alias = this.state.alias('r');
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
    stage.where.push(this.state.tenancy(alias));
    for (const p of r.properties) {
      const left = this.exprs.relProperty(rel, p.key, p.pos);
      const right = this.exprs.expr(p.value, { scope: stage.scope, aggregates: 'forbidden', where: 'a property map' });
      stage.where.push(this.exprs.comparison('=', left, right, p.pos));
    }
    return { rel, a, b };
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
    const max = r.range!.max ?? this.state.opts.maxHops;
    if (max > this.state.opts.maxHops)
      throw semantic(`Variable-length relationships may span at most ${this.state.opts.maxHops} hops`, r.pos);
    if (min > max) throw semantic('The lower bound of a variable-length relationship exceeds its upper bound', r.pos);
    const alias = this.state.alias('v');
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
}
