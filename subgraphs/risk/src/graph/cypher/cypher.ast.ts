/** The read-only openCypher subset's syntax tree (what cypher.parser.ts produces). */

export interface Position {
  /** 0-based character offset */
  offset: number;
  /** 1-based */
  line: number;
  /** 1-based */
  column: number;
}

export interface Query {
  clauses: Clause[];
}

export type Clause = MatchClause | ProjectionClause;

export interface MatchClause {
  kind: 'match';
  optional: boolean;
  patterns: Pattern[];
  where: Expr | null;
  pos: Position;
}

export interface ProjectionClause {
  kind: 'with' | 'return';
  distinct: boolean;
  /** null = `*` */
  items: ProjectionItem[] | null;
  orderBy: OrderItem[];
  skip: Expr | null;
  limit: Expr | null;
  /** WITH … WHERE */
  where: Expr | null;
  pos: Position;
}

export interface ProjectionItem {
  expr: Expr;
  alias: string | null;
  /** The item's source text: its result name when there is no alias. */
  text: string;
  pos: Position;
}

export interface OrderItem {
  expr: Expr;
  descending: boolean;
}

/** node (rel node)* */
export interface Pattern {
  nodes: NodePattern[];
  rels: RelPattern[];
  pos: Position;
}

export interface PropertyEntry {
  key: string;
  value: Expr;
  pos: Position;
}

export interface NodePattern {
  variable: string | null;
  labels: Array<{ name: string; pos: Position }>;
  properties: PropertyEntry[];
  pos: Position;
}

export interface RelPattern {
  variable: string | null;
  types: Array<{ name: string; pos: Position }>;
  /** out: -[]->, in: <-[]-, both: -[]- */
  direction: 'out' | 'in' | 'both';
  /** Variable length `*min..max`; null for a single hop. */
  range: { min: number | null; max: number | null } | null;
  properties: PropertyEntry[];
  pos: Position;
}

export type Expr =
  | { kind: 'literal'; value: string | number | boolean | null; integer: boolean; pos: Position }
  | { kind: 'param'; name: string; pos: Position }
  | { kind: 'variable'; name: string; pos: Position }
  | { kind: 'property'; target: Expr; key: string; keyPos: Position; pos: Position }
  | { kind: 'list'; items: Expr[]; pos: Position }
  | { kind: 'not'; arg: Expr; pos: Position }
  | { kind: 'negate'; arg: Expr; pos: Position }
  | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr; pos: Position }
  | { kind: 'isNull'; arg: Expr; negated: boolean; pos: Position }
  | { kind: 'call'; name: string; distinct: boolean; star: boolean; args: Expr[]; pos: Position };

export type BinaryOp =
  'or' | 'xor' | 'and' | '=' | '<>' | '<' | '<=' | '>' | '>=' | 'in' | 'startsWith' | 'endsWith' | 'contains' | '+' | '-' | '*' | '/' | '%';
