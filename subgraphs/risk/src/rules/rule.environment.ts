import { Environment, serialize, type ASTNode } from '@marcbachmann/cel-js';
import { RE2JS } from 're2js';

/**
 * The CEL environment rule conditions are written against (documented in docs/api/risk.md and served
 * by the `riskRuleEnvironment` query). CEL integers are BigInt: counters are `int`, amounts and
 * sums are `double` — write `txn.amount > 50000.0` or `> 50000` (mixed int/double comparisons
 * are allowed), but arithmetic must stay within one type (`sender.sum_1h + txn.amount`).
 */

export interface FactDoc {
  name: string;
  type: string;
  description: string;
}

type Schema = Record<string, string>;

interface Variable {
  name: string;
  description: string;
  fields: Array<[field: string, type: string, description: string]>;
}

const VARIABLES: Variable[] = [
  {
    name: 'txn',
    description: 'The transaction being evaluated',
    fields: [
      ['amount', 'double', 'Amount in the currency unit (e.g. 1500.0)'],
      ['currency', 'string', 'ISO 4217 code, upper case'],
      ['channel', 'string', 'Channel as sent ("" when absent)'],
      ['sender', 'string', 'Sending account id'],
      ['receiver', 'string', 'Receiving account id'],
      [
        'metadata',
        'map<string, dyn>',
        'The metadata object as sent (JSON numbers are doubles); test optional keys with has(txn.metadata.key)',
      ],
      ['hour_utc', 'int', 'Hour of the evaluation, 0–23 UTC'],
    ],
  },
  {
    name: 'sender',
    description: "The sending account's history before this transaction",
    fields: [
      ['count_1h', 'int', 'Transfers sent in the last hour'],
      ['sum_1h', 'double', 'Amount sent in the last hour, in this currency'],
      ['count_24h', 'int', 'Transfers sent in the last 24 hours'],
      ['sum_24h', 'double', 'Amount sent in the last 24 hours, in this currency'],
      ['distinct_receivers_24h', 'int', 'Distinct accounts paid in the last 24 hours (capped at the degree cap)'],
      ['received_count_1h', 'int', 'Transfers received in the last hour'],
      ['received_sum_1h', 'double', 'Amount received in the last hour, in this currency'],
      ['is_new', 'bool', 'No transfer to or from this account was seen before'],
    ],
  },
  {
    name: 'receiver',
    description: "The receiving account's history before this transaction",
    fields: [
      ['count_1h', 'int', 'Transfers received in the last hour'],
      ['sum_1h', 'double', 'Amount received in the last hour, in this currency'],
      ['count_24h', 'int', 'Transfers received in the last 24 hours'],
      ['sum_24h', 'double', 'Amount received in the last 24 hours, in this currency'],
      ['distinct_senders_24h', 'int', 'Distinct accounts that paid it in the last 24 hours (capped at the degree cap)'],
      ['is_new', 'bool', 'No transfer to or from this account was seen before'],
    ],
  },
  {
    name: 'device',
    description: 'metadata.device_id and its history (zeros when absent)',
    fields: [
      ['present', 'bool', 'The transaction carries metadata.device_id'],
      ['distinct_accounts_24h', 'int', 'Distinct accounts that used the device in the last 24 hours, this sender included'],
      ['new_for_sender', 'bool', 'The sender never used this device before'],
      ['count_1h', 'int', 'Transfers made from the device in the last hour'],
    ],
  },
  {
    name: 'ip',
    description: 'metadata.ip and its history (zeros when absent)',
    fields: [
      ['present', 'bool', 'The transaction carries metadata.ip'],
      ['distinct_accounts_24h', 'int', 'Distinct accounts seen from the address in the last 24 hours, this sender included'],
    ],
  },
  {
    name: 'pair',
    description: 'Transfers from this sender to this receiver before this one',
    fields: [
      ['count_24h', 'int', 'Transfers in the last 24 hours'],
      ['sum_24h', 'double', 'Amount in the last 24 hours, in this currency'],
      ['is_new', 'bool', 'No transfer between them in the last 24 hours'],
    ],
  },
  {
    name: 'graph',
    description: 'Facts from the graph detectors (this transaction included as an edge)',
    fields: [
      ['in_cycle', 'bool', 'The transfer closes a cycle of 2–5 transfers within the cycle window'],
      ['cycle_length', 'int', 'Length of the shortest such cycle, 0 when none'],
      ['fan_in_24h', 'int', 'Distinct senders into the receiver in the last 24 hours, this one included'],
      ['fan_out_24h', 'int', 'Distinct receivers of the sender in the last 24 hours, this one included'],
      ['shared_device_accounts', 'int', 'Distinct accounts on the device in the last 24 hours (0 without device)'],
      ['pass_through', 'bool', 'The sender forwards at least 80% of what it received in the last hour'],
      [
        'pass_through_ratio',
        'double',
        'Sent in the last hour (this one included) / received in the last hour; 0 when nothing was received',
      ],
      ['patterns', 'list<string>', 'Patterns found: cycle, fan_in, fan_out, shared_device, rapid_pass_through'],
    ],
  },
];

/**
 * Reporting thresholds (currency → amount) used by `reporting_threshold(currency)`: the cash/
 * transaction reporting levels of common African currencies (and USD/EUR/GBP), approximate
 * defaults for rule writing, not legal advice. Unknown currencies answer 10000.0.
 */
export const REPORTING_THRESHOLDS: Record<string, number> = {
  KES: 1_000_000,
  NGN: 5_000_000,
  GHS: 50_000,
  UGX: 20_000_000,
  TZS: 10_000_000,
  RWF: 10_000_000,
  ZAR: 50_000,
  XOF: 5_000_000,
  XAF: 5_000_000,
  ETB: 300_000,
  ZMW: 100_000,
  MWK: 5_000_000,
  EGP: 500_000,
  MAD: 100_000,
  USD: 10_000,
  EUR: 10_000,
  GBP: 10_000,
};
const DEFAULT_REPORTING_THRESHOLD = 10_000;

export function reportingThreshold(currency: string): number {
  return REPORTING_THRESHOLDS[currency.toUpperCase()] ?? DEFAULT_REPORTING_THRESHOLD;
}

export const FUNCTIONS: FactDoc[] = [
  {
    name: 'reporting_threshold(string)',
    type: 'double',
    description: 'Reporting threshold of a currency (see the README table); 10000.0 when unknown',
  },
  {
    name: 'string.matches(string)',
    type: 'bool',
    description: 'RE2 search (linear time, no backtracking); the pattern must be a string literal (no backreferences or lookaround)',
  },
];

/** Macros (all, exists, exists_one, map, filter) may nest this deep: each level multiplies the work. */
export const MAX_MACRO_NESTING = 2;
const MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);
/** The engine's own `matches` backtracks (JavaScript RegExp); conditions call this RE2 one instead. */
const RE2_MATCHES = 're2_matches';

const re2Cache = new Map<string, RE2JS>();
function re2(pattern: string): RE2JS {
  let compiled = re2Cache.get(pattern);
  if (!compiled) {
    compiled = RE2JS.compile(pattern);
    if (re2Cache.size >= 1_000) re2Cache.clear();
    re2Cache.set(pattern, compiled);
  }
  return compiled;
}

class ConditionError extends Error {}

/**
 * Checks what the type checker cannot (literal RE2 patterns, macro nesting) and rewrites every
 * `matches` call to the RE2 function, in place; returns the condition to compile and whether it
 * calls a macro (without one, its work is bounded by its size and the transaction's).
 */
function guard(ast: ASTNode): { source: string; macros: boolean } {
  let macros = false;
  const visit = (node: unknown, nesting: number): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, nesting));
    if (!node || typeof node !== 'object' || !('op' in node)) return;
    const n = node as { op: string; args: unknown };
    if ((n.op === 'rcall' || n.op === 'call') && Array.isArray(n.args)) {
      const [name] = n.args as [string];
      const isMacro = n.op === 'rcall' && MACROS.has(name);
      macros ||= isMacro;
      if (isMacro && nesting + 1 > MAX_MACRO_NESTING) {
        throw new ConditionError(`macros (${[...MACROS].join(', ')}) may nest at most ${MAX_MACRO_NESTING} deep`);
      }
      if (name === 'matches') rewriteMatches(n as { op: string; args: unknown[] });
      return visit(n.args, isMacro ? nesting + 1 : nesting);
    }
    visit(n.args, nesting);
  };
  visit(ast, 0);
  return { source: serialize(ast), macros };
}

/** `s.matches(p)` / `matches(s, p)` → `re2_matches(s, p)`, after checking `p` is a literal RE2 pattern. */
function rewriteMatches(node: { op: string; args: unknown[] }): void {
  const [, receiver, args] = node.op === 'rcall' ? node.args : [node.args[0], undefined, node.args[1]];
  const operands = node.op === 'rcall' ? [receiver, ...(args as unknown[])] : (args as unknown[]);
  const pattern = operands[1] as { op?: string; args?: unknown } | undefined;
  if (operands.length !== 2 || pattern?.op !== 'value' || typeof pattern.args !== 'string') {
    throw new ConditionError('matches() takes a string literal pattern');
  }
  try {
    re2(pattern.args);
  } catch (err) {
    throw new ConditionError(`matches() pattern is not valid RE2 syntax: ${(err as Error).message}`);
  }
  node.op = 'call';
  node.args = [RE2_MATCHES, operands];
}

function schemaOf(v: Variable): Schema {
  return Object.fromEntries(v.fields.map(([f, t]) => [f, t]));
}

function buildEnvironment(): Environment {
  const env = new Environment({
    homogeneousAggregateLiterals: false,
    limits: { maxAstNodes: 2_000, maxDepth: 50, maxListElements: 500, maxMapEntries: 200, maxCallArguments: 16 },
  });
  for (const v of VARIABLES) env.registerVariable({ name: v.name, schema: schemaOf(v), description: v.description });
  env.registerFunction('reporting_threshold(string): double', (currency: string) => reportingThreshold(currency));
  env.registerFunction(`${RE2_MATCHES}(string, string): bool`, (text: string, pattern: string) => re2(pattern).matcher(text).find());
  return env;
}

const ENVIRONMENT = buildEnvironment();

/** Every variable of the environment, flattened (`sender.count_1h: int — …`). */
export const RULE_FACTS: FactDoc[] = VARIABLES.flatMap((v) =>
  v.fields.map(([f, type, description]) => ({ name: `${v.name}.${f}`, type, description })),
);

/** Where in the condition a check failed: 0-based offset and length, 1-based line and column. */
export interface ConditionPosition {
  offset: number;
  length: number;
  line: number;
  column: number;
}

export type CheckResult = { ok: true } | { ok: false; message: string; position: ConditionPosition | null };

function positionOf(condition: string, range: { start: number; end: number } | undefined): ConditionPosition | null {
  if (!range) return null;
  const before = condition.slice(0, range.start).split('\n');
  return { offset: range.start, length: range.end - range.start, line: before.length, column: before.at(-1)!.length + 1 };
}

/** The condition the engine runs: `guard`ed (throws ConditionError or the parser's error). */
function guarded(condition: string): { source: string; macros: boolean } {
  return guard(ENVIRONMENT.parse(condition).ast);
}

/**
 * Type-checks a condition: it must parse, use only the environment, yield a bool (or dyn), give
 * `matches` literal RE2 patterns and nest macros at most MAX_MACRO_NESTING deep.
 */
export function checkCondition(condition: string): CheckResult {
  let source: string;
  try {
    source = guarded(condition).source;
  } catch (err) {
    if (err instanceof ConditionError) return { ok: false, message: err.message, position: null };
    source = condition; // a syntax error: let the checker report it with its position
  }
  const result = ENVIRONMENT.check(source);
  if (!result.valid) {
    // positions of the rewritten source are not the author's: report the author's text when it fails too
    const own = source === condition ? result : ENVIRONMENT.check(condition);
    const error = own.valid ? result.error : own.error;
    return {
      ok: false,
      message: error?.message ?? 'invalid condition',
      position: own.valid ? null : positionOf(condition, (error as { range?: { start: number; end: number } } | undefined)?.range),
    };
  }
  if (result.type !== 'bool' && result.type !== 'dyn') {
    return { ok: false, message: `condition must be a bool expression, but it yields ${result.type}`, position: null };
  }
  return { ok: true };
}

export type CompiledCondition = ((facts: RuleActivation) => unknown) & {
  /** No macro: its work is bounded by the condition's size (the parse limits) and the transaction's. */
  bounded: boolean;
};

/** Parses once; the result is called per evaluation. Throws the parser's error when invalid. */
export function compileCondition(condition: string): CompiledCondition {
  const { source, macros } = guarded(condition);
  const parsed = ENVIRONMENT.parse(source);
  return Object.assign((facts: RuleActivation) => parsed(facts as never), { bounded: !macros });
}

/** What the detectors and counters computed, in plain numbers (converted for CEL by `activation`). */
export interface RuleFacts {
  txn: {
    amount: number;
    currency: string;
    channel: string;
    sender: string;
    receiver: string;
    metadata: Record<string, unknown>;
    hour_utc: number;
  };
  sender: {
    count_1h: number;
    sum_1h: number;
    count_24h: number;
    sum_24h: number;
    distinct_receivers_24h: number;
    received_count_1h: number;
    received_sum_1h: number;
    is_new: boolean;
  };
  receiver: { count_1h: number; sum_1h: number; count_24h: number; sum_24h: number; distinct_senders_24h: number; is_new: boolean };
  device: { present: boolean; distinct_accounts_24h: number; new_for_sender: boolean; count_1h: number };
  ip: { present: boolean; distinct_accounts_24h: number };
  pair: { count_24h: number; sum_24h: number; is_new: boolean };
  graph: {
    in_cycle: boolean;
    cycle_length: number;
    fan_in_24h: number;
    fan_out_24h: number;
    shared_device_accounts: number;
    pass_through: boolean;
    pass_through_ratio: number;
    patterns: string[];
  };
}

export type RuleActivation = Record<string, Record<string, unknown>>;

/** Each variable's `int` fields (per evaluation, so looked up once here). */
const INT_FIELDS = new Map(VARIABLES.map((v) => [v.name, v.fields.filter(([, type]) => type === 'int').map(([f]) => f)]));

/** Facts → CEL values: `int` fields become BigInt, everything else stays as it is. */
export function activation(facts: RuleFacts): RuleActivation {
  const out: RuleActivation = {};
  for (const name in facts) {
    const values: Record<string, unknown> = { ...(facts as unknown as RuleActivation)[name] };
    for (const f of INT_FIELDS.get(name)!) if (f in values) values[f] = BigInt(Math.trunc(Number(values[f])));
    out[name] = values;
  }
  return out;
}
