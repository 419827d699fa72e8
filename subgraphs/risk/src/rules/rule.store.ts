import { randomBytes } from 'node:crypto';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../../../../platform/audit/audit.js';
import type pg from 'pg';
import { badInput, conflict, notFound } from '../../../../platform/errors.js';
import { tenantColumns, tenantKey, type Tenant } from '../../../../platform/auth/tenant.js';
import { inTransaction } from '../../../../platform/db/transaction.js';
import { RULE_ACTIONS, RULE_SEVERITIES, type RuleAction, type RuleSeverity } from './rule.entity.js';
import { DEFAULT_RULES, type RuleDefinition } from './rule.defaults.js';
import { checkCondition } from './rule.environment.js';

/** The fields a change may carry (absent = keep the current value). */
export interface RulePatch {
  name?: string | null;
  description?: string | null;
  condition?: string | null;
  action?: string | null;
  severity?: string | null;
  enabled?: boolean | null;
}

export interface RuleRow {
  id: string;
  name: string;
  description: string | null;
  condition: string;
  action: RuleAction;
  severity: RuleSeverity;
  enabled: boolean;
  version: number;
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface SaveResult {
  rule: RuleRow;
  /** false when the request changed nothing (no new version). */
  updated: boolean;
  created: boolean;
  /** When the current version took effect (the commit of the change). */
  effectiveAt: Date;
  revision: string;
}

export const RULE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const MAX_CONDITION = 4_000;
const MAX_NAME = 200;
const MAX_DESCRIPTION = 2_000;
const VERSIONED_FIELDS = ['name', 'description', 'condition', 'action', 'severity', 'enabled'] as const;

/** Validates a patch; every problem is one message (400 BAD_USER_INPUT as the spec wants). */
export function validatePatch(patch: RulePatch): void {
  const errors: string[] = [];
  const str = (field: keyof RulePatch, max: number) => {
    const v = patch[field];
    if (v === undefined || v === null) return;
    if (typeof v !== 'string') errors.push(`${field} must be a string`);
    else if (!v.trim()) errors.push(`${field} must not be empty`);
    else if (v.length > max) errors.push(`${field} must be at most ${max} characters`);
  };
  str('name', MAX_NAME);
  str('condition', MAX_CONDITION);
  if (typeof patch.description === 'string' && patch.description.length > MAX_DESCRIPTION)
    errors.push(`description must be at most ${MAX_DESCRIPTION} characters`);
  if (patch.action != null && !(RULE_ACTIONS as readonly string[]).includes(patch.action))
    errors.push(`action must be one of: ${RULE_ACTIONS.join(', ')}`);
  if (patch.severity != null && !(RULE_SEVERITIES as readonly string[]).includes(patch.severity))
    errors.push(`severity must be one of: ${RULE_SEVERITIES.join(', ')}`);
  if (patch.enabled != null && typeof patch.enabled !== 'boolean') errors.push('enabled must be a boolean');
  if (errors.length) throw badInput(errors);
  if (typeof patch.condition === 'string') {
    const checked = checkCondition(patch.condition);
    if (!checked.ok) throw badInput(`condition is invalid: ${checked.message}`);
  }
}

export function validateRuleId(id: string): void {
  if (!RULE_ID_PATTERN.test(id)) throw badInput('rule id must be 1–64 letters, digits, "_", "-" or "." and start with a letter or digit');
}

let lastMs = 0;
let sequence = 0;

/**
 * A version 7 UUID (RFC 9562): the creation millisecond, a counter within it, random bits. Ids
 * made by this process sort in the order they were made, also within one millisecond: lists of
 * versions and audit entries are ordered by creation millisecond, then id, so a rule's versions
 * made in the same millisecond still list newest first.
 */
export function orderedId(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    lastMs += 1;
    sequence = 0;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const SELECT_RULE = `select id, name, description, condition, action, severity, enabled, version,
  is_default as "isDefault", created_at as "createdAt", updated_at as "updatedAt" from risk.rules`;

/**
 * Rule writes: every change is one transaction that locks the tenant's rule set, bumps its
 * revision (whose trigger NOTIFYs every instance on commit), writes the current row, a new
 * immutable version and an audit entry. Shared by all requests of a process.
 */
export class RulesStore {
  private readonly seeded = new Set<string>();

  constructor(private readonly pool: pg.Pool) {}

  /** Seeds the default rule set once per tenant (also under concurrent first uses). */
  async ensureSeeded(tenant: Tenant): Promise<void> {
    const key = tenantKey(tenant);
    if (this.seeded.has(key)) return;
    await inTransaction(this.pool, async (client) => {
      await client.query(`insert into risk.rule_sets (organization_id, environment) values ($1, $2) on conflict do nothing`, [
        tenant.organizationId,
        tenant.environment,
      ]);
      const { rows } = await client.query<{ seeded_at: Date | null; revision: string }>(
        `select seeded_at, revision from risk.rule_sets where organization_id = $1 and environment = $2 for update`,
        [tenant.organizationId, tenant.environment],
      );
      if (rows[0].seeded_at) return;
      const revision = await this.bump(client, tenant, true);
      for (const rule of DEFAULT_RULES) await this.insertNew(client, tenant, rule, 'system', 'seeded', revision, true);
    });
    this.seeded.add(key);
  }

  async get(tenant: Tenant, id: string): Promise<RuleRow | null> {
    const { rows } = await this.pool.query<RuleRow>(`${SELECT_RULE} where organization_id = $1 and environment = $2 and id = $3`, [
      tenant.organizationId,
      tenant.environment,
      id,
    ]);
    return rows[0] ?? null;
  }

  /**
   * PUT semantics: creates the rule when the id is new (condition and action required), else
   * applies the given fields. Unchanged → no new version (`updated: false`).
   */
  async save(
    tenant: Tenant,
    id: string,
    patch: RulePatch,
    actor: string,
    mode: 'upsert' | 'create' | 'update' = 'upsert',
    /** Who, for the organization's audit trail (platform/audit), recorded in the same transaction. */
    auditActor: AuditActor = SYSTEM_ACTOR,
  ): Promise<SaveResult> {
    validateRuleId(id);
    validatePatch(patch);
    await this.ensureSeeded(tenant);
    return inTransaction(this.pool, async (client) => {
      await this.lockRuleSet(client, tenant);
      const { rows } = await client.query<RuleRow>(`${SELECT_RULE} where organization_id = $1 and environment = $2 and id = $3`, [
        tenant.organizationId,
        tenant.environment,
        id,
      ]);
      const current = rows[0];
      if (!current) {
        if (mode === 'update') throw notFound('Rule', id);
        const missing = (['condition', 'action'] as const).filter((f) => patch[f] == null);
        if (missing.length) throw badInput(missing.map((f) => `${f} is required to create rule ${id}`));
        const definition: RuleDefinition = {
          id,
          name: patch.name?.trim() || id,
          description: patch.description ?? null,
          condition: patch.condition!,
          action: patch.action as RuleAction,
          severity: (patch.severity as RuleSeverity) ?? 'medium',
          enabled: patch.enabled ?? true,
        } as RuleDefinition;
        const revision = await this.bump(client, tenant);
        const rule = await this.insertNew(client, tenant, definition, actor, 'created', revision, false);
        await this.recordChange(client, tenant, rule, 'created', auditActor);
        return { rule, updated: true, created: true, effectiveAt: rule.updatedAt, revision };
      }
      if (mode === 'create') throw conflict(`Rule ${id} already exists; update it instead`);
      const next = { ...current };
      for (const field of VERSIONED_FIELDS) {
        const value = patch[field];
        if (value === undefined || (value === null && field !== 'description')) continue;
        (next as Record<string, unknown>)[field] = field === 'name' && typeof value === 'string' ? value.trim() : value;
      }
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      for (const field of VERSIONED_FIELDS) {
        if (next[field] !== current[field]) changes[field] = { from: current[field], to: next[field] };
      }
      if (!Object.keys(changes).length) {
        const { rows: set } = await client.query<{ revision: string }>(
          `select revision from risk.rule_sets where organization_id = $1 and environment = $2`,
          [tenant.organizationId, tenant.environment],
        );
        return { rule: current, updated: false, created: false, effectiveAt: current.updatedAt, revision: set[0].revision };
      }
      const change = Object.keys(changes).length === 1 && changes.enabled ? (next.enabled ? 'enabled' : 'disabled') : 'updated';
      const revision = await this.bump(client, tenant);
      const { rows: saved } = await client.query<RuleRow>(
        `update risk.rules set name = $4, description = $5, condition = $6, action = $7, severity = $8, enabled = $9,
           version = version + 1, updated_at = clock_timestamp()
         where organization_id = $1 and environment = $2 and id = $3
         returning id, name, description, condition, action, severity, enabled, version,
           is_default as "isDefault", created_at as "createdAt", updated_at as "updatedAt"`,
        [
          tenant.organizationId,
          tenant.environment,
          id,
          next.name,
          next.description,
          next.condition,
          next.action,
          next.severity,
          next.enabled,
        ],
      );
      const rule = saved[0];
      await this.insertVersion(client, tenant, rule, actor);
      await this.insertAudit(client, tenant, rule, change, actor, changes, revision);
      await this.recordChange(client, tenant, rule, change, auditActor);
      return { rule, updated: true, created: false, effectiveAt: rule.updatedAt, revision };
    });
  }

  private async lockRuleSet(client: pg.PoolClient, tenant: Tenant): Promise<string> {
    const { rows } = await client.query<{ revision: string }>(
      `select revision from risk.rule_sets where organization_id = $1 and environment = $2 for update`,
      [tenant.organizationId, tenant.environment],
    );
    return rows[0].revision;
  }

  /** The tenant's next revision; its trigger NOTIFYs `risk_rules` on commit. */
  private async bump(client: pg.PoolClient, tenant: Tenant, seeding = false): Promise<string> {
    const { rows } = await client.query<{ revision: string }>(
      `update risk.rule_sets set revision = revision + 1, updated_at = clock_timestamp()${seeding ? ', seeded_at = clock_timestamp()' : ''}
       where organization_id = $1 and environment = $2 returning revision`,
      [tenant.organizationId, tenant.environment],
    );
    return rows[0].revision;
  }

  private async insertNew(
    client: pg.PoolClient,
    tenant: Tenant,
    d: RuleDefinition,
    actor: string,
    change: string,
    revision: string,
    isDefault: boolean,
  ): Promise<RuleRow> {
    const { rows } = await client.query<RuleRow>(
      `insert into risk.rules (organization_id, environment, id, name, description, condition, action, severity, enabled, version, is_default, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10, clock_timestamp(), clock_timestamp())
       returning id, name, description, condition, action, severity, enabled, version,
         is_default as "isDefault", created_at as "createdAt", updated_at as "updatedAt"`,
      [
        tenant.organizationId,
        tenant.environment,
        d.id,
        d.name,
        d.description ?? null,
        d.condition,
        d.action,
        d.severity,
        d.enabled,
        isDefault,
      ],
    );
    const rule = rows[0];
    await this.insertVersion(client, tenant, rule, actor);
    const changes = Object.fromEntries(VERSIONED_FIELDS.map((f) => [f, { from: null, to: rule[f] }]));
    await this.insertAudit(client, tenant, rule, change, actor, changes, revision);
    return rule;
  }

  private async insertVersion(client: pg.PoolClient, tenant: Tenant, r: RuleRow, actor: string): Promise<void> {
    await client.query(
      `insert into risk.rule_versions (id, organization_id, environment, rule_id, version, name, description, condition, action, severity, enabled, created_by, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        orderedId(),
        tenant.organizationId,
        tenant.environment,
        r.id,
        r.version,
        r.name,
        r.description,
        r.condition,
        r.action,
        r.severity,
        r.enabled,
        actor,
        r.updatedAt,
      ],
    );
  }

  private recordChange(client: pg.PoolClient, tenant: Tenant, rule: RuleRow, change: string, actor: AuditActor): Promise<void> {
    return recordAudit(client, {
      ...tenantColumns(tenant),
      action: 'risk_rule.changed',
      actor,
      resourceType: 'risk_rule',
      resourceId: rule.id,
      details: { change, version: rule.version, enabled: rule.enabled, action: rule.action },
    });
  }

  private async insertAudit(
    client: pg.PoolClient,
    tenant: Tenant,
    r: RuleRow,
    change: string,
    actor: string,
    changes: Record<string, { from: unknown; to: unknown }>,
    revision: string,
  ): Promise<void> {
    await client.query(
      `insert into risk.rule_audit (id, organization_id, environment, rule_id, version, change, actor, changes, revision, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        orderedId(),
        tenant.organizationId,
        tenant.environment,
        r.id,
        r.version,
        change,
        actor,
        JSON.stringify(changes),
        revision,
        r.updatedAt,
      ],
    );
  }
}
