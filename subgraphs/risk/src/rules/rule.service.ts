import { randomBytes } from 'node:crypto';
import { SYSTEM_ACTOR, type AuditActor } from '../../../../platform/audit/audit.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { Rule, RuleAudit, RuleVersion, type RuleChange } from './rule.entity.js';
import type { RulePatch, RulesStore, SaveResult } from './rule.store.js';
import { RULE_ID_PATTERN } from './rule.store.js';
import { checkCondition, type ConditionPosition } from './rule.environment.js';

/** Rules of one tenant: reads through the ORM, every change through the store (versioned, audited, notified). */
export class RulesService {
  constructor(
    private readonly em: EntityManager,
    private readonly store: RulesStore,
    private readonly tenant: Tenant,
    /** `client:<id>` of the caller, recorded in versions and audit entries. */
    private readonly actor: string,
    /** The caller, for the organization's audit trail. */
    private readonly auditActor: AuditActor = SYSTEM_ACTOR,
  ) {}

  /** The organization's rules (enabled or disabled ones only), newest first. */
  async list(filter: { enabled?: boolean | null }, page: ConnectionArgs): Promise<Connection<Rule>> {
    await this.store.ensureSeeded(this.tenant);
    return paginate(this.em, Rule, { ...this.tenant, ...(filter.enabled != null && { enabled: filter.enabled }) }, page);
  }

  /** The caller's rule with this id, or null. */
  async find(id: string): Promise<Rule | null> {
    await this.store.ensureSeeded(this.tenant);
    return this.em.findOne(Rule, { ...this.tenant, id });
  }

  async get(id: string): Promise<Rule> {
    const rule = await this.find(id);
    if (!rule) throw notFound('Rule', id);
    return rule;
  }

  /** Every version of a rule, newest first (none for a rule that does not exist). */
  async versions(ruleId: string, page: ConnectionArgs): Promise<Connection<RuleVersion>> {
    await this.store.ensureSeeded(this.tenant);
    return paginate(this.em, RuleVersion, { ...this.tenant, ruleId }, page);
  }

  /** The audit trail of one rule or of all, newest first. */
  async audit(filter: { ruleId?: string | null; change?: RuleChange | null }, page: ConnectionArgs): Promise<Connection<RuleAudit>> {
    await this.store.ensureSeeded(this.tenant);
    return paginate(
      this.em,
      RuleAudit,
      { ...this.tenant, ...(filter.ruleId != null && { ruleId: filter.ruleId }), ...(filter.change != null && { change: filter.change }) },
      page,
    );
  }

  upsert(id: string, patch: RulePatch): Promise<SaveResult> {
    return this.store.save(this.tenant, id, patch, this.actor, 'upsert', this.auditActor);
  }

  create(input: RulePatch & { id?: string | null; name: string }): Promise<SaveResult> {
    const id = input.id ?? slug(input.name);
    const { id: _id, ...patch } = input;
    return this.store.save(this.tenant, id, patch, this.actor, 'create', this.auditActor);
  }

  setEnabled(id: string, enabled: boolean): Promise<SaveResult> {
    return this.store.save(this.tenant, id, { enabled }, this.actor, 'update', this.auditActor);
  }

  check(condition: string): { valid: boolean; message: string | null; position: ConditionPosition | null } {
    const result = checkCondition(condition);
    return result.ok
      ? { valid: true, message: null, position: null }
      : { valid: false, message: result.message, position: result.position };
  }
}

/** "Large night transfer" → "large_night_transfer_3f9a" (unique enough; 409 on a clash). */
function slug(name: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 50);
  const id = `${base || 'rule'}_${randomBytes(2).toString('hex')}`;
  return RULE_ID_PATTERN.test(id) ? id : `rule_${randomBytes(4).toString('hex')}`;
}
