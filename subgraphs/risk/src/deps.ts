import type pg from 'pg';
import type { Config } from '../../../platform/config.js';
import type { EvaluationEngine } from './evaluation/evaluation.engine.js';
import type { RuleCache } from './rules/rule.cache.js';
import type { RulesStore } from './rules/rule.store.js';
import type { GraphQueryExecutor } from './graph/cypher/cypher.executor.js';
import type { SanctionsLayer } from './sanctions/sanctions.layer.js';
import type { AccountStore } from './accounts/account.store.js';

/** What the risk subgraph's resolvers need beyond the request context (one set per process). */
export interface RiskDeps {
  config: Config;
  engine: EvaluationEngine;
  rules: RulesStore;
  ruleCache: RuleCache;
  graphQuery: GraphQueryExecutor;
  sanctions: SanctionsLayer;
  accounts: AccountStore;
  /** For reads outside the ORM (the graph's tables). */
  pool: pg.Pool;
}
