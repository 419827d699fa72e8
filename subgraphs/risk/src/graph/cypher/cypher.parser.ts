import type {
  BinaryOp,
  Clause,
  Expr,
  MatchClause,
  NodePattern,
  OrderItem,
  Pattern,
  Position,
  ProjectionClause,
  ProjectionItem,
  PropertyEntry,
  Query,
  RelPattern,
} from './cypher.ast.js';
import { CypherError } from './cypher.error.js';
import { tokenize, type Token } from './cypher.tokenizer.js';

/**
 * A hand-written recursive-descent parser for the documented read-only openCypher subset.
 * Every error carries the position (line, column) of the offending token. The tokens come from
 * cypher.tokenizer.ts.
 */

/** Clauses that write or call procedures: refused with 400 (the database would refuse them too). */
export const WRITE_CLAUSES = ['CREATE', 'MERGE', 'SET', 'DELETE', 'DETACH', 'REMOVE', 'DROP', 'FOREACH', 'LOAD', 'CALL'] as const;
/** Words that cannot be unquoted variable names (clause and operator keywords). */
const RESERVED = new Set([
  'MATCH',
  'OPTIONAL',
  'WHERE',
  'WITH',
  'RETURN',
  'DISTINCT',
  'AS',
  'ORDER',
  'BY',
  'ASC',
  'ASCENDING',
  'DESC',
  'DESCENDING',
  'SKIP',
  'OFFSET',
  'LIMIT',
  'AND',
  'OR',
  'XOR',
  'NOT',
  'IN',
  'STARTS',
  'ENDS',
  'CONTAINS',
  'IS',
  'NULL',
  'TRUE',
  'FALSE',
  'CREATE',
  'MERGE',
  'SET',
  'DELETE',
  'DETACH',
  'REMOVE',
  'DROP',
  'CALL',
  'UNWIND',
  'UNION',
  'FOREACH',
  'LOAD',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
]);
const UNSUPPORTED_CLAUSES = ['UNWIND', 'UNION', 'USE', 'SHOW', 'START', 'TERMINATE', 'ALTER', 'GRANT', 'DENY', 'REVOKE', 'FINISH'];

export const MAX_QUERY_LENGTH = 20_000;

export function parseCypher(source: string): Query {
  if (source.length > MAX_QUERY_LENGTH) throw new CypherError(`Query must be at most ${MAX_QUERY_LENGTH} characters`, null);
  return new Parser(source, tokenize(source)).query();
}

class Parser {
  private i = 0;
  private depth = 0;

  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
  ) {}

  // ---- token helpers -------------------------------------------------------------------------
  private get tok(): Token {
    return this.tokens[this.i];
  }

  private peek(n = 1): Token {
    return this.tokens[Math.min(this.i + n, this.tokens.length - 1)];
  }

  private next(): Token {
    const t = this.tokens[this.i];
    if (t.type !== 'eof') this.i++;
    return t;
  }

  private isWord(word: string, t: Token = this.tok): boolean {
    return t.type === 'word' && t.value.toUpperCase() === word;
  }

  private isPunct(p: string, t: Token = this.tok): boolean {
    return t.type === 'punct' && t.value === p;
  }

  private acceptWord(word: string): boolean {
    if (!this.isWord(word)) return false;
    this.i++;
    return true;
  }

  private acceptPunct(p: string): boolean {
    if (!this.isPunct(p)) return false;
    this.i++;
    return true;
  }

  private describe(t: Token): string {
    if (t.type === 'eof') return 'end of query';
    if (t.type === 'string') return 'a string';
    return `'${this.source.slice(t.pos.offset, t.end)}'`;
  }

  private error(expected: string, t: Token = this.tok): never {
    throw new CypherError(`Expected ${expected} but found ${this.describe(t)}`, t.pos, 'syntax');
  }

  private unsupported(what: string, t: Token = this.tok): never {
    throw new CypherError(`Unsupported syntax: ${what}`, t.pos, 'unsupported');
  }

  private expectWord(word: string): Token {
    if (!this.isWord(word)) this.error(word);
    return this.next();
  }

  private expectPunct(p: string): Token {
    if (!this.isPunct(p)) this.error(`'${p}'`);
    return this.next();
  }

  private name(what: string): { name: string; pos: Position } {
    const t = this.tok;
    if (t.type !== 'word' && t.type !== 'ident') this.error(what);
    this.i++;
    return { name: t.value, pos: t.pos };
  }

  // ---- clauses -------------------------------------------------------------------------------
  query(): Query {
    const clauses: Clause[] = [];
    while (this.tok.type !== 'eof') {
      if (this.acceptPunct(';')) {
        if (this.tokens[this.i].type !== 'eof') this.unsupported('several statements in one query');
        break;
      }
      clauses.push(this.clause());
    }
    if (!clauses.length) throw new CypherError('Empty query: expected MATCH, OPTIONAL MATCH, WITH or RETURN', this.tok.pos);
    return { clauses };
  }

  private clause(): Clause {
    const t = this.tok;
    if (this.isWord('MATCH')) return this.match(false);
    if (this.isWord('OPTIONAL')) {
      this.next();
      if (!this.isWord('MATCH')) this.error('MATCH after OPTIONAL');
      return this.match(true, t.pos);
    }
    if (this.isWord('WITH')) return this.projection('with');
    if (this.isWord('RETURN')) return this.projection('return');
    const word = t.type === 'word' ? t.value.toUpperCase() : '';
    if ((WRITE_CLAUSES as readonly string[]).includes(word)) {
      const what = word === 'CALL' ? 'procedure calls (CALL)' : `${word} clauses`;
      throw new CypherError(`Graph queries are read-only: ${what} are not allowed`, t.pos, 'write');
    }
    if (UNSUPPORTED_CLAUSES.includes(word)) this.unsupported(`${word} is not part of the supported subset`);
    this.error('MATCH, OPTIONAL MATCH, WITH or RETURN');
  }

  private match(optional: boolean, pos?: Position): MatchClause {
    const start = this.expectWord('MATCH');
    const patterns: Pattern[] = [this.pattern()];
    while (this.acceptPunct(',')) patterns.push(this.pattern());
    const where = this.acceptWord('WHERE') ? this.expr() : null;
    return { kind: 'match', optional, patterns, where, pos: pos ?? start.pos };
  }

  private projection(kind: 'with' | 'return'): ProjectionClause {
    const start = this.next();
    const distinct = this.acceptWord('DISTINCT');
    let items: ProjectionItem[] | null;
    if (this.acceptPunct('*')) {
      items = null;
      if (this.acceptPunct(',')) this.unsupported('* followed by more items');
    } else {
      items = [this.projectionItem()];
      while (this.acceptPunct(',')) items.push(this.projectionItem());
    }
    const orderBy: OrderItem[] = [];
    if (this.acceptWord('ORDER')) {
      this.expectWord('BY');
      do {
        const expr = this.expr();
        let descending = false;
        if (this.acceptWord('DESC') || this.acceptWord('DESCENDING')) descending = true;
        else if (!this.acceptWord('ASC')) this.acceptWord('ASCENDING');
        orderBy.push({ expr, descending });
      } while (this.acceptPunct(','));
    }
    const skip = this.acceptWord('SKIP') || this.acceptWord('OFFSET') ? this.expr() : null;
    const limit = this.acceptWord('LIMIT') ? this.expr() : null;
    const where = kind === 'with' && this.acceptWord('WHERE') ? this.expr() : null;
    return { kind, distinct, items, orderBy, skip, limit, where, pos: start.pos };
  }

  private projectionItem(): ProjectionItem {
    const start = this.tok;
    const expr = this.expr();
    const endOffset = this.tokens[this.i - 1].end;
    const text = this.source.slice(start.pos.offset, endOffset).trim();
    let alias: string | null = null;
    if (this.acceptWord('AS')) alias = this.name('an alias after AS').name;
    return { expr, alias, text, pos: start.pos };
  }

  // ---- patterns ------------------------------------------------------------------------------
  private pattern(): Pattern {
    const start = this.tok;
    if ((start.type === 'word' || start.type === 'ident') && this.isPunct('=', this.peek())) {
      this.unsupported('path variables (p = …)');
    }
    if (!this.isPunct('(')) this.error("a node pattern '('");
    const nodes: NodePattern[] = [this.node()];
    const rels: RelPattern[] = [];
    while (this.isPunct('-') || this.isPunct('<')) {
      rels.push(this.rel());
      if (!this.isPunct('(')) this.error("a node pattern '(' after a relationship");
      nodes.push(this.node());
    }
    return { nodes, rels, pos: start.pos };
  }

  private node(): NodePattern {
    const start = this.expectPunct('(');
    let variable: string | null = null;
    if (this.tok.type === 'word' || this.tok.type === 'ident') variable = this.name('a variable').name;
    const labels: NodePattern['labels'] = [];
    while (this.acceptPunct(':')) {
      labels.push(this.name('a label'));
      if (this.isPunct('|') || this.isPunct('&') || this.isPunct('!')) this.unsupported('label expressions');
    }
    const properties = this.isPunct('{') ? this.propertyMap() : [];
    if (this.isWord('WHERE')) this.unsupported('WHERE inside a node pattern');
    this.expectPunct(')');
    return { variable, labels, properties, pos: start.pos };
  }

  private rel(): RelPattern {
    const start = this.tok;
    let leftArrow = false;
    if (this.acceptPunct('<')) leftArrow = true;
    this.expectPunct('-');
    let variable: string | null = null;
    const types: RelPattern['types'] = [];
    let range: RelPattern['range'] = null;
    let properties: PropertyEntry[] = [];
    if (this.acceptPunct('[')) {
      if (this.tok.type === 'word' || this.tok.type === 'ident') variable = this.name('a variable').name;
      if (this.acceptPunct(':')) {
        types.push(this.name('a relationship type'));
        while (this.acceptPunct('|')) {
          this.acceptPunct(':');
          types.push(this.name('a relationship type'));
        }
        if (this.isPunct('&') || this.isPunct('!')) this.unsupported('relationship type expressions');
      }
      if (this.acceptPunct('*')) range = this.range();
      if (this.isPunct('{')) properties = this.propertyMap();
      if (this.isWord('WHERE')) this.unsupported('WHERE inside a relationship pattern');
      this.expectPunct(']');
      this.expectPunct('-');
    } else {
      // `--` (or `<--`, `-->`): the second dash
      this.expectPunct('-');
    }
    let rightArrow = false;
    if (this.acceptPunct('>')) rightArrow = true;
    if (leftArrow && rightArrow) throw new CypherError('A relationship cannot point both ways', start.pos);
    return { variable, types, direction: rightArrow ? 'out' : leftArrow ? 'in' : 'both', range, properties, pos: start.pos };
  }

  private range(): { min: number | null; max: number | null } {
    const int = (): number | null => {
      if (this.tok.type !== 'number') return null;
      const t = this.next();
      if (!t.integer || (t.num ?? -1) < 0) throw new CypherError('Path length bounds must be non-negative integers', t.pos);
      return t.num!;
    };
    const min = int();
    if (this.acceptPunct('..')) return { min, max: int() };
    // `*3` = exactly 3; `*` = unbounded
    return min === null ? { min: null, max: null } : { min, max: min };
  }

  private propertyMap(): PropertyEntry[] {
    this.expectPunct('{');
    const entries: PropertyEntry[] = [];
    if (!this.isPunct('}')) {
      do {
        const key = this.name('a property name');
        this.expectPunct(':');
        entries.push({ key: key.name, value: this.expr(), pos: key.pos });
      } while (this.acceptPunct(','));
    }
    this.expectPunct('}');
    return entries;
  }

  // ---- expressions ---------------------------------------------------------------------------
  expr(): Expr {
    if (++this.depth > 200) throw new CypherError('Expression nested too deeply', this.tok.pos);
    try {
      return this.or();
    } finally {
      this.depth--;
    }
  }

  private binaryLevel(next: () => Expr, ops: Array<[string, BinaryOp]>, words: boolean): Expr {
    let left = next();
    for (;;) {
      const t = this.tok;
      const op = ops.find(([symbol]) => (words ? this.isWord(symbol) : this.isPunct(symbol)));
      if (!op) return left;
      this.next();
      const right = next();
      left = { kind: 'binary', op: op[1], left, right, pos: t.pos };
    }
  }

  private or(): Expr {
    return this.binaryLevel(() => this.xor(), [['OR', 'or']], true);
  }

  private xor(): Expr {
    return this.binaryLevel(() => this.and(), [['XOR', 'xor']], true);
  }

  private and(): Expr {
    return this.binaryLevel(() => this.not(), [['AND', 'and']], true);
  }

  private not(): Expr {
    const t = this.tok;
    if (this.acceptWord('NOT')) return { kind: 'not', arg: this.not(), pos: t.pos };
    return this.comparison();
  }

  private comparison(): Expr {
    const ops: Array<[string, BinaryOp]> = [
      ['=', '='],
      ['<>', '<>'],
      ['<', '<'],
      ['<=', '<='],
      ['>', '>'],
      ['>=', '>='],
    ];
    const first = this.predicate();
    let left = first;
    let previous = first;
    let result: Expr | null = null;
    for (;;) {
      const t = this.tok;
      if (this.isPunct('=~')) this.unsupported('regular expressions (=~)');
      const op = ops.find(([symbol]) => this.isPunct(symbol));
      if (!op) break;
      this.next();
      const right = this.predicate();
      // a < b < c  ≡  a < b AND b < c
      const cmp: Expr = { kind: 'binary', op: op[1], left: previous, right, pos: t.pos };
      result = result ? { kind: 'binary', op: 'and', left: result, right: cmp, pos: t.pos } : cmp;
      previous = right;
      left = result;
    }
    return left;
  }

  private predicate(): Expr {
    let left = this.additive();
    for (;;) {
      const t = this.tok;
      if (this.acceptWord('IN')) {
        left = { kind: 'binary', op: 'in', left, right: this.additive(), pos: t.pos };
      } else if (this.isWord('STARTS')) {
        this.next();
        this.expectWord('WITH');
        left = { kind: 'binary', op: 'startsWith', left, right: this.additive(), pos: t.pos };
      } else if (this.isWord('ENDS')) {
        this.next();
        this.expectWord('WITH');
        left = { kind: 'binary', op: 'endsWith', left, right: this.additive(), pos: t.pos };
      } else if (this.acceptWord('CONTAINS')) {
        left = { kind: 'binary', op: 'contains', left, right: this.additive(), pos: t.pos };
      } else if (this.isWord('IS')) {
        this.next();
        const negated = this.acceptWord('NOT');
        if (!this.acceptWord('NULL')) this.error(negated ? 'NULL after IS NOT' : 'NULL or NOT NULL after IS');
        left = { kind: 'isNull', arg: left, negated, pos: t.pos };
      } else return left;
    }
  }

  private additive(): Expr {
    return this.binaryLevel(
      () => this.multiplicative(),
      [
        ['+', '+'],
        ['-', '-'],
      ],
      false,
    );
  }

  private multiplicative(): Expr {
    return this.binaryLevel(
      () => this.unary(),
      [
        ['*', '*'],
        ['/', '/'],
        ['%', '%'],
      ],
      false,
    );
  }

  private unary(): Expr {
    const t = this.tok;
    if (this.acceptPunct('-')) return { kind: 'negate', arg: this.unary(), pos: t.pos };
    if (this.acceptPunct('+')) return this.unary();
    if (this.isPunct('^')) this.unsupported('the ^ operator');
    return this.postfix();
  }

  private postfix(): Expr {
    let e = this.atom();
    for (;;) {
      if (this.acceptPunct('.')) {
        const key = this.name('a property name after .');
        e = { kind: 'property', target: e, key: key.name, keyPos: key.pos, pos: e.pos };
      } else if (this.isPunct('[')) {
        this.unsupported('list indexing and slicing');
      } else if (this.isPunct(':')) {
        this.unsupported('label predicates in expressions (n:Label)');
      } else return e;
    }
  }

  private atom(): Expr {
    const t = this.tok;
    switch (t.type) {
      case 'number':
        this.next();
        return { kind: 'literal', value: t.num!, integer: t.integer!, pos: t.pos };
      case 'string':
        this.next();
        return { kind: 'literal', value: t.value, integer: false, pos: t.pos };
      case 'param':
        this.next();
        return { kind: 'param', name: t.value, pos: t.pos };
      case 'punct':
        if (this.acceptPunct('(')) {
          if (this.looksLikePattern()) this.unsupported('pattern expressions', t);
          const inner = this.expr();
          this.expectPunct(')');
          return inner;
        }
        if (this.acceptPunct('[')) {
          const items: Expr[] = [];
          if (!this.isPunct(']')) {
            do items.push(this.expr());
            while (this.acceptPunct(','));
          }
          if (this.isWord('WHERE') || this.isPunct('|')) this.unsupported('list comprehensions');
          this.expectPunct(']');
          return { kind: 'list', items, pos: t.pos };
        }
        if (this.isPunct('{')) this.unsupported('map literals', t);
        return this.error('an expression');
      case 'word': {
        const upper = t.value.toUpperCase();
        if (upper === 'TRUE' || upper === 'FALSE') {
          this.next();
          return { kind: 'literal', value: upper === 'TRUE', integer: false, pos: t.pos };
        }
        if (upper === 'NULL') {
          this.next();
          return { kind: 'literal', value: null, integer: false, pos: t.pos };
        }
        if (['CASE', 'EXISTS', 'ALL', 'ANY', 'NONE', 'SINGLE', 'REDUCE', 'COUNT'].includes(upper) && this.isPunct('{', this.peek())) {
          this.unsupported(`${upper} subqueries`);
        }
        if (upper === 'CASE') this.unsupported('CASE expressions');
        if (this.isPunct('(', this.peek())) return this.call();
        if (RESERVED.has(upper)) return this.error('an expression');
        if (this.isPunct('.', this.peek()) && this.tok.type === 'word' && this.peek(2).type === 'word' && this.isPunct('(', this.peek(3))) {
          this.unsupported('namespaced functions and procedures');
        }
        this.next();
        return { kind: 'variable', name: t.value, pos: t.pos };
      }
      case 'ident':
        this.next();
        return { kind: 'variable', name: t.value, pos: t.pos };
      default:
        return this.error('an expression');
    }
  }

  /** After '(' in an expression: `()`, `(:L`, `(n:L`, `(n)-[`, `(n)--`, `(n)<-` start a pattern. */
  private looksLikePattern(): boolean {
    if (this.isPunct(')') || this.isPunct(':')) return true;
    if (this.tok.type !== 'word' && this.tok.type !== 'ident') return false;
    if (this.isPunct(':', this.peek()) || this.isPunct('{', this.peek())) return true;
    if (!this.isPunct(')', this.peek())) return false;
    const [a, b] = [this.peek(2), this.peek(3)];
    return (this.isPunct('-', a) && (this.isPunct('[', b) || this.isPunct('-', b))) || (this.isPunct('<', a) && this.isPunct('-', b));
  }

  private call(): Expr {
    const nameTok = this.next();
    this.expectPunct('(');
    const name = nameTok.value;
    if (this.acceptPunct('*')) {
      this.expectPunct(')');
      return { kind: 'call', name, distinct: false, star: true, args: [], pos: nameTok.pos };
    }
    const distinct = this.acceptWord('DISTINCT');
    const args: Expr[] = [];
    if (!this.isPunct(')')) {
      do args.push(this.expr());
      while (this.acceptPunct(','));
    }
    this.expectPunct(')');
    return { kind: 'call', name, distinct, star: false, args, pos: nameTok.pos };
  }
}
