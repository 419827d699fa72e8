import type pg from 'pg';
import type { Capability } from '../../../platform/capability.js';
import type { Config } from '../../../platform/config.js';
import type { EventStream } from '../../../platform/events/event-stream.js';
import type { Logger } from '../../../platform/logger.js';
import type { EvaluationEngine } from './evaluation/evaluation.engine.js';
import type { RuleCache } from './rules/rule.cache.js';
import type { RulesStore } from './rules/rule.store.js';
import type { SanctionsLayer } from './sanctions/sanctions.layer.js';
import type { AccountStore } from './accounts/account.store.js';
import type { TenantGraphs } from './graph/graph.owner.js';

/** What the risk service builds once (index.ts): the evaluation engine and the layers it runs. */
export interface RiskShared {
  config: Config;
  logger: Logger;
  events: EventStream;
  databaseUrl: string;
  /** For reads outside the ORM (the graph's tables). */
  pool: pg.Pool;
  engine: EvaluationEngine;
  /** Which process holds each tenant's graph (this one, or where to forward). */
  graphs: TenantGraphs;
  rules: RulesStore;
  ruleCache: RuleCache;
  sanctions: SanctionsLayer;
  accounts: AccountStore;
}

export type RiskCapability<Deps extends object = object> = Capability<RiskShared, Deps>;
