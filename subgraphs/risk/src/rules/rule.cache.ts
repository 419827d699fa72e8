import vm from 'node:vm';
import type pg from 'pg';
import type { Listening } from '../../../../platform/db/listen.js';
import type { EventStream } from '../../../../platform/events/event-stream.js';
import type { Logger } from '../../../../platform/logger.js';
import { tenantKey, type Tenant } from '../../../../platform/auth/tenant.js';
import type { RuleAction, RuleSeverity } from './rule.entity.js';
import { compileCondition, type CompiledCondition, type RuleActivation } from './rule.environment.js';

export interface CompiledRule {
  id: string;
  name: string;
  description: string | null;
  version: number;
  action: RuleAction;
  severity: RuleSeverity;
  condition: string;
  evaluate: CompiledCondition | null;
  /** Set when the stored condition no longer compiles (it was type-checked when saved). */
  compileError: string | null;
}

export interface RuleSetSnapshot {
  revision: string;
  rules: CompiledRule[];
}

export interface FiredRule {
  id: string;
  name: string;
  description: string | null;
  version: number;
  action: RuleAction;
  severity: RuleSeverity;
}

export interface RuleError {
  id: string;
  version: number;
  message: string;
}

export interface RulesOutcome {
  checked: number;
  fired: FiredRule[];
  errors: RuleError[];
}

/** Default time budget of one evaluation's rules (RULE_TIME_BUDGET_MS). */
export const DEFAULT_RULE_BUDGET_MS = 100;

/**
 * Rules that call a macro run inside a vm call with a timeout: V8 stops the call (a runaway macro)
 * when the budget is spent, which a try/catch in JavaScript cannot do, so one tenant's rule cannot
 * hold the event loop that serves every other tenant. A rule set without macros runs directly: its
 * work is bounded by the parse limits, and a timed vm call costs a watchdog thread per evaluation
 * (about a fifth of the risk subgraph's CPU at 200 evaluations/s).
 */
const SANDBOX = vm.createContext({});
const RUN_RULES = new vm.Script('run()');

/**
 * Runs every enabled rule of a snapshot against the facts within `budgetMs`; a failing rule does
 * not fire. The rule running when the budget ran out, and those after it, are reported as errors.
 */
export function runRules(snapshot: RuleSetSnapshot, facts: RuleActivation, budgetMs = DEFAULT_RULE_BUDGET_MS): RulesOutcome {
  const fired: FiredRule[] = [];
  const errors: RuleError[] = [];
  const { rules } = snapshot;
  let next = 0;
  const run = () => {
    for (; next < rules.length; next++) runRule(rules[next], facts, fired, errors);
  };
  if (rules.every((r) => !r.evaluate || r.evaluate.bounded)) {
    run();
  } else {
    try {
      (SANDBOX as { run?: () => void }).run = run;
      RUN_RULES.runInContext(SANDBOX, { timeout: budgetMs });
    } catch (err) {
      if ((err as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw err;
      for (const [i, rule] of rules.slice(next).entries()) {
        const message =
          i === 0 ? `exceeded the evaluation's time budget (${budgetMs} ms)` : "not run: the evaluation's time budget was spent";
        errors.push({ id: rule.id, version: rule.version, message });
      }
    } finally {
      (SANDBOX as { run?: () => void }).run = undefined;
    }
  }
  return { checked: rules.length, fired, errors };
}

function runRule(rule: CompiledRule, facts: RuleActivation, fired: FiredRule[], errors: RuleError[]): void {
  if (!rule.evaluate) {
    errors.push({ id: rule.id, version: rule.version, message: rule.compileError ?? 'condition does not compile' });
    return;
  }
  try {
    const result = rule.evaluate(facts);
    if (result === true) {
      fired.push({
        id: rule.id,
        name: rule.name,
        description: rule.description,
        version: rule.version,
        action: rule.action,
        severity: rule.severity,
      });
    } else if (typeof result !== 'boolean') {
      errors.push({
        id: rule.id,
        version: rule.version,
        message: `condition yielded ${typeof result === 'bigint' ? 'int' : typeof result}, not bool`,
      });
    }
  } catch (err) {
    errors.push({ id: rule.id, version: rule.version, message: firstLine((err as Error).message) });
  }
}

const firstLine = (s: string) => s.split('\n')[0];

interface StoredRule {
  id: string;
  name: string;
  description: string | null;
  condition: string;
  action: RuleAction;
  severity: RuleSeverity;
  version: number;
}

function compile(rows: StoredRule[]): CompiledRule[] {
  return rows.map((r) => {
    try {
      return { ...r, evaluate: compileCondition(r.condition), compileError: null };
    } catch (err) {
      return { ...r, evaluate: null, compileError: firstLine((err as Error).message) };
    }
  });
}

/**
 * Compiled rules per tenant, keyed by the tenant's rule-set revision. The database is
 * authoritative: an evaluation either reads the current revision first (and the rules are
 * reloaded when it differs) or uses the latest snapshot held and is refused at its commit if the
 * revision moved meanwhile (then evaluated again after a read), so a committed change applies to
 * the very next evaluation on every instance. LISTEN `risk_rules` (NOTIFY on commit of every
 * change) reloads eagerly, so that evaluation usually finds the new rules compiled already.
 */
export class RuleCache {
  private readonly entries = new Map<string, RuleSetSnapshot>();
  private readonly loading = new Map<string, Promise<RuleSetSnapshot | null>>();
  private listening: Listening | null = null;
  /** Count of reloads caused by a notification (observability, tests). */
  notifiedReloads = 0;

  constructor(
    private readonly events: Pick<EventStream, 'listen'>,
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    // changes missed while disconnected are caught by the per-evaluation revision check
    this.listening = await this.events.listen({
      channel: 'risk_rules',
      logger: this.logger,
      onNotification: (payload) => this.onNotice(payload),
    });
  }

  async stop(): Promise<void> {
    await this.listening?.stop();
    this.listening = null;
  }

  private onNotice(raw: string | undefined): void {
    if (!raw) return;
    let notice: { organizationId: string; environment: string; revision: string | number };
    try {
      notice = JSON.parse(raw);
    } catch {
      return;
    }
    const tenant = { organizationId: notice.organizationId, environment: notice.environment };
    const cached = this.entries.get(tenantKey(tenant));
    // only tenants this instance serves are kept warm
    if (!cached || BigInt(cached.revision) >= BigInt(notice.revision)) return;
    this.notifiedReloads++;
    void this.load(this.pool, tenant).catch((err) => this.logger.warn({ err }, 'eager rules reload failed'));
  }

  /** The latest snapshot held for the tenant, whatever its revision (an evaluation using it is checked at its commit). */
  latest(tenant: Tenant): RuleSetSnapshot | null {
    return this.entries.get(tenantKey(tenant)) ?? null;
  }

  /** The cached snapshot when its revision is current (no query). */
  peek(tenant: Tenant, revision: string): RuleSetSnapshot | null {
    const cached = this.entries.get(tenantKey(tenant));
    return cached && cached.revision === revision ? cached : null;
  }

  /**
   * The rules at `revision` (read by the caller inside its transaction): from the cache, else
   * loaded with `db` (the caller's connection, so it sees what its transaction sees).
   */
  async rulesAt(db: pg.ClientBase | pg.Pool, tenant: Tenant, revision: string): Promise<RuleSetSnapshot> {
    const hit = this.peek(tenant, revision);
    if (hit) return hit;
    const loaded = await this.load(db, tenant);
    if (!loaded) return { revision, rules: [] };
    return loaded;
  }

  private load(db: pg.ClientBase | pg.Pool, tenant: Tenant): Promise<RuleSetSnapshot | null> {
    const key = tenantKey(tenant);
    // a caller's own connection must run its own query (it may be inside a transaction)
    if (db === this.pool) {
      const pending = this.loading.get(key);
      if (pending) return pending;
    }
    const work = (async () => {
      // revision and rules in one statement: one snapshot
      const { rows } = await db.query<{ revision: string; rules: StoredRule[] }>(
        `select s.revision::text as revision,
           coalesce((select json_agg(json_build_object('id', r.id, 'name', r.name, 'description', r.description,
             'condition', r.condition, 'action', r.action, 'severity', r.severity, 'version', r.version) order by r.id)
             from risk.rules r
             where r.organization_id = s.organization_id and r.environment = s.environment and r.enabled), '[]') as rules
         from risk.rule_sets s where s.organization_id = $1 and s.environment = $2`,
        [tenant.organizationId, tenant.environment],
      );
      if (!rows[0]) return null;
      const snapshot: RuleSetSnapshot = { revision: rows[0].revision, rules: compile(rows[0].rules) };
      const current = this.entries.get(key);
      if (!current || BigInt(current.revision) <= BigInt(snapshot.revision)) this.entries.set(key, snapshot);
      return snapshot;
    })();
    if (db === this.pool) {
      this.loading.set(key, work);
      void work.finally(() => this.loading.delete(key)).catch(() => undefined);
    }
    return work;
  }

  get tenants(): number {
    return this.entries.size;
  }
}
