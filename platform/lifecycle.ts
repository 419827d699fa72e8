import { conflict } from './errors.js';

/** One row of a state table: `trigger` moves a resource from one of `from` to `to`, firing `event`. */
export interface Move<S extends string, T extends string> {
  /** `null` stands for "no resource yet": the move creates it. */
  from: readonly (S | null)[];
  trigger: T;
  /** `null`: the status stays as it is (the move only records what happened). */
  to: S | null;
  /** The outbox event the move fires; none when absent. */
  event?: string;
}

/**
 * A resource's lifecycle as data: its statuses and the moves between them, the spec's state tables
 * written once. Services ask it for the move (a CONFLICT when the table has none), SQL updates ask it
 * for the statuses a trigger applies to, so a late or repeated change cannot move a status backwards.
 */
export class Lifecycle<S extends string, T extends string> {
  constructor(
    /** How conflicts name the resource: "a verification", "a watchlist alert". */
    readonly noun: string,
    readonly statuses: readonly S[],
    readonly moves: readonly Move<S, T>[],
  ) {
    for (const m of moves) {
      const unknown = [...m.from, m.to].filter((s) => s !== null && !statuses.includes(s));
      if (unknown.length) throw new Error(`${noun} lifecycle: ${m.trigger} names unknown statuses ${unknown.join(', ')}`);
    }
  }

  /** The move `trigger` makes from `from`; CONFLICT (409) when the table has none. */
  move(from: S | null, trigger: T): Move<S, T> {
    const found = this.moves.find((m) => m.trigger === trigger && m.from.includes(from));
    if (!found) {
      const allowed = this.sources(trigger);
      throw conflict(
        `Cannot apply ${trigger} to ${this.noun} in status ${from ?? 'none'}${allowed.length ? ` (allowed from: ${allowed.join(', ')})` : ''}`,
      );
    }
    return found;
  }

  /** The status after `trigger` from `from` (CONFLICT when not allowed). */
  next(from: S | null, trigger: T): S {
    const m = this.move(from, trigger);
    return m.to ?? (from as S);
  }

  /** The move from `from` resolved to what callers record: the status after it and its event (CONFLICT when not allowed). */
  fire(from: S | null, trigger: T): { status: S; event: string } {
    const m = this.move(from, trigger);
    if (!m.event) throw new Error(`${this.noun} lifecycle: ${trigger} fires no event`);
    return { status: m.to ?? (from as S), event: m.event };
  }

  /** Whether the table allows `trigger` from `from`. */
  allows(from: S | null, trigger: T): boolean {
    return this.moves.some((m) => m.trigger === trigger && m.from.includes(from));
  }

  /** Existing statuses `trigger` applies to: the guard of a SQL update (`where status = any(…)`). */
  sources(trigger: T): S[] {
    return [...new Set(this.moves.filter((m) => m.trigger === trigger).flatMap((m) => m.from))].filter((s): s is S => s !== null);
  }

  /** The status `trigger` leads to, for triggers that lead to one status whatever the start. */
  target(trigger: T): S {
    const targets = [...new Set(this.moves.filter((m) => m.trigger === trigger).map((m) => m.to))];
    if (targets.length !== 1 || targets[0] === null) throw new Error(`${this.noun} lifecycle: ${trigger} has no single target status`);
    return targets[0];
  }

  /** The event `trigger` fires (from any status). */
  eventOf(trigger: T): string | undefined {
    return this.moves.find((m) => m.trigger === trigger)?.event;
  }
}

/**
 * A status computed from the statuses of a resource's parts (a notification's from its channels):
 * the first rule whose condition holds wins. Written once as data; `deriveStatus` evaluates it in
 * code and `deriveStatusSql` in an aggregate query, so the two cannot drift apart.
 */
export type StatusRule<S extends string, P extends string> =
  { status: S; when: 'any'; of: readonly P[] } | { status: S; when: 'all'; of: readonly P[] } | { status: S; when: 'otherwise' };

export function deriveStatus<S extends string, P extends string>(rules: readonly StatusRule<S, P>[], parts: readonly P[]): S {
  for (const rule of rules) {
    if (rule.when === 'otherwise') return rule.status;
    const hits = parts.filter((p) => rule.of.includes(p)).length;
    if (rule.when === 'any' ? hits > 0 : hits === parts.length) return rule.status;
  }
  throw new Error('status rules must end with an `otherwise` rule');
}

/** The same rules as a SQL `case` over the parts' `column` (inside a `group by` of the resource). */
export function deriveStatusSql<S extends string, P extends string>(rules: readonly StatusRule<S, P>[], column: string): string {
  const quote = (v: string) => `'${v.replace(/'/g, "''")}'`;
  const whens = rules.map((rule) => {
    if (rule.when === 'otherwise') return `else ${quote(rule.status)}`;
    const test = `${column} in (${rule.of.map(quote).join(', ')})`;
    return `when ${rule.when === 'any' ? 'bool_or' : 'bool_and'}(${test}) then ${quote(rule.status)}`;
  });
  return `case ${whens.join(' ')} end`;
}
