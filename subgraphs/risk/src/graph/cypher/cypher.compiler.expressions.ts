/**
 * Expression compiler: turns WHERE / property-map / WITH / RETURN / ORDER BY expressions into typed
 * SQL fragments (`Compiled`). Covers literals and parameters (always bound as SQL parameters),
 * variables and property access on nodes and relationships, comparisons (with datetime coercion
 * and node/relationship identity), boolean, string, list and arithmetic operators, scalar
 * functions, aggregates, and the JSON rendering of result cells.
 */
import type { Expr, Position } from './cypher.ast.js';
import {
  STATIC_LABEL,
  fromBinding,
  semantic,
  unsupported,
  type CompileState,
  type Compiled,
  type ExprContext,
  type NodeB,
  type RelB,
  type RelsB,
  type Scope,
} from './cypher.compiler.context.js';
import { NODE_TABLES, REL_TABLES, ALL_REL_PROPERTIES, type Label, type ValueType } from './cypher.schema.js';

const AGGREGATES = ['count', 'sum', 'avg', 'min', 'max', 'collect'];

export class ExpressionCompiler {
  constructor(private readonly state: CompileState) {}

  nodeProperty(b: NodeB, key: string, pos: Position): Compiled {
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

  relProperty(rel: RelB, key: string, pos: Position): Compiled {
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

  /** The JSON a result cell carries. */
  toJson(c: Compiled): string {
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

  condition(e: Expr, scope: Scope, where: string): string {
    const c = this.expr(e, { scope, aggregates: 'forbidden', where });
    if (!['boolean', 'null', 'any'].includes(c.type)) throw semantic(`${where} needs a boolean condition`, e.pos);
    return c.sql;
  }

  expr(e: Expr, ctx: ExprContext): Compiled {
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
        return fromBinding(b);
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
    if (typeof value === 'string') return { sql: this.state.param(value, 'text'), type: 'string', aggregate: false };
    return integer
      ? { sql: this.state.param(value, 'bigint'), type: 'integer', aggregate: false }
      : { sql: this.state.param(value, 'float8'), type: 'number', aggregate: false };
  }

  private paramExpr(name: string, pos: Position): Compiled {
    const value = this.state.paramValue(name, pos);
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return this.literal(value, false);
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw semantic(`Parameter $${name} must be a finite number`, pos);
      return this.literal(value, Number.isInteger(value));
    }
    if (Array.isArray(value)) {
      if (!value.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) {
        throw semantic(`Parameter $${name} must be a list of strings, numbers or booleans`, pos);
      }
      return { sql: this.state.param(JSON.stringify(value), 'jsonb'), type: 'list', aggregate: false };
    }
    throw semantic(`Parameter $${name} must be a string, number, boolean, null or a list of them`, pos);
  }

  private expectType(c: Compiled, types: ValueType[], what: string, pos: Position): void {
    if (c.type === 'null' || c.type === 'any') return;
    if (!types.includes(c.type as ValueType)) throw semantic(`${what} expects ${types.join(' or ')}, not ${c.type}`, pos);
  }

  /** `left op right` for scalars (with date/time coercion of string literals) or entities. */
  comparison(op: string, left: Compiled, right: Compiled, pos: Position): string {
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
    const list = this.state.paramValue(e.right.name, e.right.pos);
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
    return { sql: `(${left.sql} = any(${this.state.param(list, cast)}))`, type: 'boolean', aggregate: left.aggregate };
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
