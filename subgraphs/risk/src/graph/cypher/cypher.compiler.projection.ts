/**
 * Projection compiler: WITH and RETURN. Compiles the projected items (or `*`), groups by the
 * non-aggregated items when any item aggregates, applies DISTINCT, ORDER BY, SKIP and LIMIT. A WITH
 * becomes a subquery stage whose columns re-expose the projected bindings; RETURN produces the final
 * statement, each column a JSON cell, capped at maxRows + 1 rows to report truncation.
 */
import type { Expr, Position, ProjectionClause } from './cypher.ast.js';
import {
  fromBinding,
  project,
  renderFrom,
  renderWhere,
  semantic,
  type Binding,
  type CompileState,
  type Compiled,
  type CompiledQuery,
  type Scope,
  type Stage,
} from './cypher.compiler.context.js';
import type { ExpressionCompiler } from './cypher.compiler.expressions.js';
import type { ValueType } from './cypher.schema.js';

export class ProjectionCompiler {
  constructor(
    private readonly state: CompileState,
    private readonly exprs: ExpressionCompiler,
  ) {}

  private items(stage: Stage, clause: ProjectionClause): Array<{ name: string; expr: Compiled; pos: Position; variable: boolean }> {
    if (clause.items === null) {
      const visible = [...stage.scope.entries()].filter(([name]) => !name.startsWith(' '));
      if (!visible.length) throw semantic(`${clause.kind.toUpperCase()} * needs at least one variable in scope`, clause.pos);
      return visible.map(([name, b]) => ({ name, expr: fromBinding(b), pos: clause.pos, variable: true }));
    }
    const names = new Set<string>();
    return clause.items.map((item) => {
      const expr = this.exprs.expr(item.expr, { scope: stage.scope, aggregates: 'allowed', where: clause.kind.toUpperCase() });
      const isVariable = item.expr.kind === 'variable';
      const name = item.alias ?? (isVariable ? (item.expr as { name: string }).name : item.text);
      if (clause.kind === 'with' && !item.alias && !isVariable) throw semantic('Expressions in WITH must be aliased (use AS)', item.pos);
      if (names.has(name)) throw semantic(`Multiple result columns named ${name}`, item.pos);
      names.add(name);
      return { name, expr, pos: item.pos, variable: isVariable };
    });
  }

  /** GROUP BY components of a non-aggregated item. */
  private groupKeys(c: Compiled): string[] {
    const b = c.binding;
    if (!b) return [c.sql];
    if (b.kind === 'node') return b.labels.length > 1 ? [b.key, b.label] : [b.key];
    if (b.kind === 'rel') return [b.eid, b.type, b.src, b.dst, b.srcLabel, b.dstLabel, ...(b.pk ? [b.pk] : []), ...Object.values(b.props)];
    return [b.json, b.eids];
  }

  private skipLimit(e: Expr | null, what: string): number | null {
    if (!e) return null;
    let value: unknown;
    if (e.kind === 'literal') value = e.value;
    else if (e.kind === 'negate' && e.arg.kind === 'literal' && typeof e.arg.value === 'number') value = -e.arg.value;
    else if (e.kind === 'param') value = this.state.paramValue(e.name, e.pos);
    else throw semantic(`${what} takes an integer or a parameter`, e.pos);
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
      const c = this.exprs.expr(o.expr, {
        scope: stage.scope,
        aggregates: grouped ? 'allowed' : 'forbidden',
        aliases,
        refs,
        where: 'ORDER BY',
      });
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

  withStage(stage: Stage, clause: ProjectionClause): Stage {
    const items = this.items(stage, clause);
    const grouped = items.some((i) => i.expr.aggregate);
    const alias = this.state.alias('s');
    const columns: string[] = [];
    const next: Scope = new Map();
    for (const item of items) {
      const binding: Binding = item.expr.binding ?? { kind: 'value', sql: item.expr.sql, type: item.expr.type as ValueType };
      next.set(item.name, project(binding, columns, alias));
    }
    const order = this.orderBy(stage, clause, items, grouped);
    const orderCols = order.map((o, i) => {
      columns.push(`${o.sql} as ord${i}`);
      return `ord${i} ${o.descending ? 'desc' : 'asc'}`;
    });
    const groupBy = grouped ? items.filter((i) => !i.expr.aggregate).flatMap((i) => this.groupKeys(i.expr)) : [];
    const skip = this.skipLimit(clause.skip, 'SKIP');
    const limit = this.skipLimit(clause.limit, 'LIMIT');
    let sql =
      `select ${clause.distinct ? 'distinct ' : ''}${columns.join(', ')}` +
      renderFrom(stage.from) +
      renderWhere(stage.where) +
      (groupBy.length ? ` group by ${groupBy.join(', ')}` : '');
    if (orderCols.length || skip !== null || limit !== null) {
      sql = `select * from (${sql}) q${orderCols.length ? ` order by ${orderCols.join(', ')}` : ''}${limit !== null ? ` limit ${limit}` : ''}${skip !== null ? ` offset ${skip}` : ''}`;
    }
    const result: Stage = { from: [{ sql: `(${sql}) ${alias}`, join: 'cross' }], where: [], scope: next };
    if (clause.where) result.where.push(this.exprs.condition(clause.where, next, 'WITH … WHERE'));
    return result;
  }

  returnStage(stage: Stage, clause: ProjectionClause): CompiledQuery {
    const items = this.items(stage, clause);
    const grouped = items.some((i) => i.expr.aggregate);
    const columns = items.map((item, i) => `${this.exprs.toJson(item.expr)} as c${i}`);
    const order = this.orderBy(stage, clause, items, grouped);
    const orderCols = order.map((o, i) => `ord${i} ${o.descending ? 'desc' : 'asc'}`);
    const inner = [...columns, ...order.map((o, i) => `${o.sql} as ord${i}`)];
    const groupBy = grouped ? items.filter((i) => !i.expr.aggregate).flatMap((i) => this.groupKeys(i.expr)) : [];
    const skip = this.skipLimit(clause.skip, 'SKIP');
    const limit = this.skipLimit(clause.limit, 'LIMIT');
    const cap = Math.min(limit ?? Infinity, this.state.opts.maxRows + 1);
    const body =
      `select ${clause.distinct ? 'distinct ' : ''}${inner.join(', ')}` +
      renderFrom(stage.from) +
      renderWhere(stage.where) +
      (groupBy.length ? ` group by ${groupBy.join(', ')}` : '');
    let sql =
      `select ${items.map((_, i) => `q.c${i}`).join(', ')} from (${body}) q` +
      (orderCols.length ? ` order by ${orderCols.join(', ')}` : '') +
      ` limit ${cap}` +
      (skip !== null ? ` offset ${skip}` : '');
    // a query reading no table (RETURN 1) still binds the tenant parameters: give them their types
    if (!/\$1\b/.test(sql)) sql = `with tenant as (select $1::uuid as organization_id, $2::text as environment) ${sql}`;
    return { sql, values: this.state.values, columns: items.map((i) => i.name) };
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
