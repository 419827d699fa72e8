import type { SubgraphDefinition } from '../../../platform/graphql/subgraph.js';
import { statusResolver } from '../../../platform/graphql/service-status.js';
import { ConfigError } from '../../../platform/config.js';
import type { ServiceModule } from '../../../platform/service-module.js';
import { capabilityParts, startCapabilities } from '../../../platform/capability.js';
import { acquireScreeningEngine } from '../../../screening/index.js';
import type { RiskShared } from './risk.shared.js';
import { EvaluationEngine } from './evaluation/evaluation.engine.js';
import { GroupCommit } from './evaluation/evaluation.commit.js';
import { TenantGraphs } from './graph/graph.owner.js';
import { RuleCache } from './rules/rule.cache.js';
import { RulesStore } from './rules/rule.store.js';
import { SanctionsLayer } from './sanctions/sanctions.layer.js';
import { AccountStore } from './accounts/account.store.js';
import { evaluationCapability } from './evaluation/evaluation.module.js';
import { rulesCapability } from './rules/rules.module.js';
import { graphCapability } from './graph/graph.module.js';
import { accountsCapability } from './accounts/accounts.module.js';
import { sanctionsCapability } from './sanctions/sanctions.module.js';
import { userCapability } from './user/user.module.js';
import { privacyCapability } from './privacy/privacy.module.js';

/** Risk's capabilities: adding one is its folder with its module, and a line here (rules first: their cache starts before the rest). */
const CAPABILITIES = [
  rulesCapability,
  evaluationCapability,
  graphCapability,
  accountsCapability,
  sanctionsCapability,
  userCapability,
  privacyCapability,
];

const parts = capabilityParts(CAPABILITIES);

/** Transaction risk: evaluate (rules, graph, sanctions), hot-reloaded CEL rules, read-only Cypher. */
export const riskSubgraph: SubgraphDefinition<RiskShared> = {
  name: 'risk',
  resolvers: [statusResolver('risk'), ...parts.resolvers],
  orphanedTypes: parts.orphanedTypes,
  referenceResolvers: parts.references,
  routes: parts.routes,
};

export const riskEntities = parts.entities;

export const riskService: ServiceModule<RiskShared> = {
  name: 'risk',
  definition: riskSubgraph,
  entities: riskEntities,
  webhookEvents: parts.webhookEvents,
  async setup(rt) {
    const c = rt.config;
    if (c.RISK_REVIEW_THRESHOLD >= c.RISK_BLOCK_THRESHOLD) {
      throw new ConfigError(
        `RISK_REVIEW_THRESHOLD (${c.RISK_REVIEW_THRESHOLD}) must be below RISK_BLOCK_THRESHOLD (${c.RISK_BLOCK_THRESHOLD})`,
      );
    }
    const logger = rt.logger.child({ service: 'risk' });
    const rules = new RulesStore(rt.pool);
    const ruleCache = new RuleCache(rt.events, rt.pool, logger);
    // one in-memory screening index per process, shared with verification (npm start runs both)
    const screening = await acquireScreeningEngine({
      pool: rt.pool,
      events: rt.events,
      logger: rt.logger.child({ component: 'screening' }),
    });
    const sanctions = new SanctionsLayer(screening.engine, c.RISK_SANCTIONS_THRESHOLD);
    const commit = new GroupCommit(rt.pool, logger);
    const graphs = new TenantGraphs({
      databaseUrl: rt.databaseUrl,
      events: rt.events,
      pool: rt.pool,
      cycleWindowHours: c.RISK_CYCLE_WINDOW_HOURS,
      internalSecret: rt.internalSecret,
      logger,
      settled: () => commit.settled(),
    });
    const engine = new EvaluationEngine({
      pool: rt.pool,
      graphs,
      commit,
      rules: ruleCache,
      store: rules,
      sanctions,
      thresholds: { review: c.RISK_REVIEW_THRESHOLD, block: c.RISK_BLOCK_THRESHOLD },
      cycleWindowHours: c.RISK_CYCLE_WINDOW_HOURS,
      degreeCap: c.RISK_GRAPH_DEGREE_CAP,
      ruleBudgetMs: c.RULE_TIME_BUDGET_MS,
      logger,
    });
    const shared: RiskShared = {
      config: c,
      logger,
      events: rt.events,
      databaseUrl: rt.databaseUrl,
      pool: rt.pool,
      engine,
      graphs,
      rules,
      ruleCache,
      sanctions,
      accounts: new AccountStore(rt.pool),
    };
    const capabilities = await startCapabilities(CAPABILITIES, shared);
    return {
      deps: capabilities.deps,
      metrics: screening.engine.metrics,
      start: async () => {
        await engine.start(rt.events);
        // the others forward evaluations of the tenants this process owns to its own endpoint
        await graphs.start(c.RISK_ADVERTISE_URL ?? rt.serviceUrl('risk')!);
        await capabilities.start();
      },
      stop: async () => {
        await capabilities.stop();
        await commit.settled();
        await graphs.stop();
        await engine.stop();
        await screening.release();
      },
    };
  },
};
