import type { RiskCapability } from '../risk.shared.js';
import { Rule, RuleAudit, RuleVersion } from './rule.entity.js';
import { RuleAuditResolver, RuleResolver, RuleVersionResolver } from './rule.resolver.js';

/** CEL rules, versioned and audited, hot-reloaded in every process. */
export const rulesCapability: RiskCapability = {
  name: 'rules',
  resolvers: [RuleResolver, RuleVersionResolver, RuleAuditResolver],
  entities: [Rule, RuleVersion, RuleAudit],
  workers: (deps) => [{ start: () => deps.ruleCache.start(), stop: () => deps.ruleCache.stop() }],
};
