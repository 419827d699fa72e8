import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, notFound } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { Rule, RuleAudit, RuleVersion } from './rule.entity.js';
import type { RulePatch, RulesStore, SaveResult } from './rule.store.js';
import { RULE_ID_PATTERN } from './rule.store.js';
import { checkCondition } from './rule.environment.js';

const MAX_AUDIT = 500;

/** Rules of one tenant: reads through the ORM, every change through the store (versioned, audited, notified). */
export class RulesService {
  constructor(
    private readonly em: EntityManager,
    private readonly store: RulesStore,
    private readonly tenant: Tenant,
    /** `client:<id>` of the caller, recorded in versions and audit entries. */
    private readonly actor: string,
  ) {}

  async list(includeDisabled = true): Promise<Rule[]> {
    await this.store.ensureSeeded(this.tenant);
    return this.em.find(Rule, { ...this.tenant, ...(includeDisabled ? {} : { enabled: true }) }, { orderBy: { id: 'asc' } });
  }

  async get(id: string): Promise<Rule> {
    await this.store.ensureSeeded(this.tenant);
    const rule = await this.em.findOne(Rule, { ...this.tenant, id });
    if (!rule) throw notFound('Rule', id);
    return rule;
  }

  async versions(id: string): Promise<RuleVersion[]> {
    await this.get(id);
    return this.em.find(RuleVersion, { ...this.tenant, ruleId: id }, { orderBy: { version: 'desc' } });
  }

  async audit(id: string | null, limit: number): Promise<RuleAudit[]> {
    if (limit < 1 || limit > MAX_AUDIT) throw badInput(`limit must be between 1 and ${MAX_AUDIT}`);
    if (id) await this.get(id);
    else await this.store.ensureSeeded(this.tenant);
    return this.em.find(
      RuleAudit,
      { ...this.tenant, ...(id ? { ruleId: id } : {}) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit },
    );
  }

  put(id: string, patch: RulePatch): Promise<SaveResult> {
    return this.store.save(this.tenant, id, patch, this.actor, 'upsert');
  }

  create(input: RulePatch & { id?: string | null; name: string }): Promise<SaveResult> {
    const id = input.id ?? slug(input.name);
    const { id: _id, ...patch } = input;
    return this.store.save(this.tenant, id, patch, this.actor, 'create');
  }

  setEnabled(id: string, enabled: boolean): Promise<SaveResult> {
    return this.store.save(this.tenant, id, { enabled }, this.actor, 'update');
  }

  check(condition: string): { valid: boolean; message: string | null } {
    const result = checkCondition(condition);
    return result.ok ? { valid: true, message: null } : { valid: false, message: result.message };
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
