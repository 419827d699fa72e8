import { randomUUID } from 'node:crypto';
import type { Opt } from '@mikro-orm/core';
import { PrimaryKeyProp } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export const RULE_ACTIONS = ['review', 'block'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];
export const RULE_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type RuleSeverity = (typeof RULE_SEVERITIES)[number];
/** What an audit entry records. */
export const RULE_CHANGES = ['seeded', 'created', 'updated', 'enabled', 'disabled'] as const;
export type RuleChange = (typeof RULE_CHANGES)[number];

/**
 * The current state of a rule (one row per tenant and rule id). Written only by the rules
 * service, always together with a new RuleVersion and a RuleAudit entry.
 */
@Entity({ schema: 'risk', tableName: 'rules' })
export class Rule {
  [PrimaryKeyProp]?: ['organizationId', 'environment', 'id'];

  @PrimaryKey({ type: 'uuid' })
  organizationId!: string;

  @PrimaryKey({ type: 'text' })
  environment!: string;

  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Property({ type: 'text' })
  condition!: string;

  @Property({ type: 'text' })
  action!: RuleAction;

  @Property({ type: 'text' })
  severity!: RuleSeverity;

  @Property({ type: 'boolean' })
  enabled!: boolean;

  @Property({ type: 'integer' })
  version!: number;

  @Property({ type: 'boolean' })
  isDefault: boolean & Opt = false;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date & Opt = new Date();
}

/** One immutable version of a rule (the database refuses updates and deletes). */
@Entity({ schema: 'risk', tableName: 'rule_versions' })
export class RuleVersion {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  ruleId!: string;

  @Property({ type: 'integer' })
  version!: number;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Property({ type: 'text' })
  condition!: string;

  @Property({ type: 'text' })
  action!: RuleAction;

  @Property({ type: 'text' })
  severity!: RuleSeverity;

  @Property({ type: 'boolean' })
  enabled!: boolean;

  @Property({ type: 'text' })
  createdBy!: string;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();
}

/** Who changed what, when (immutable). */
@Entity({ schema: 'risk', tableName: 'rule_audit' })
export class RuleAudit {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  ruleId!: string;

  @Property({ type: 'integer' })
  version!: number;

  @Property({ type: 'text' })
  change!: RuleChange;

  /** `client:<api client id>` or `system` */
  @Property({ type: 'text' })
  actor!: string;

  /** field → {from, to} */
  @Property({ type: 'json' })
  changes!: Record<string, { from: unknown; to: unknown }>;

  /** The tenant's rule-set revision this change produced. */
  @Property({ type: 'bigint' })
  revision!: string;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();
}
