import pg from 'pg';
import { logDatabaseError } from '../../../platform/db/connection-errors.js';
import type { SubgraphDefinition } from '../../../platform/graphql/subgraph.js';
import { statusResolver } from '../../../platform/graphql/service-status.js';
import { ConfigError } from '../../../platform/config.js';
import { resolveUserReference } from '../../../platform/graphql/user.js';
import { UserType } from './user/user.type.js';
import type { ServiceModule } from '../../../platform/service-module.js';
import type { RiskDeps } from './deps.js';
import { Evaluation } from './evaluation/evaluation.entity.js';
import { RISK_WEBHOOK_EVENTS } from './evaluation/evaluation.events.js';
import { EvaluationEngine } from './evaluation/evaluation.engine.js';
import { EvaluationResolver, resolveEvaluationReference } from './evaluation/evaluation.resolver.js';
import { Rule, RuleAudit, RuleVersion } from './rules/rule.entity.js';
import { RuleAuditResolver, RuleResolver, RuleVersionResolver } from './rules/rule.resolver.js';
import { RuleCache } from './rules/rule.cache.js';
import { RulesStore } from './rules/rule.store.js';
import { GraphQueryExecutor } from './graph/cypher/cypher.executor.js';
import { GraphQueryResolver } from './graph/cypher/cypher.resolver.js';
import { pruneVelocity } from './graph/graph.store.js';
import { SanctionsLayer } from './sanctions/sanctions.layer.js';
import { SanctionsResolver } from './sanctions/sanctions.resolver.js';
import { AccountStore } from './accounts/account.store.js';
import { AccountResolver, AccountUserResolver, resolveAccountReference } from './accounts/account.resolver.js';
import { acquireScreeningEngine } from '../../../screening/index.js';
import { RiskDataExportResolver, resolveRiskDataExportReference, UserDataExportType } from './privacy/privacy.resolver.js';
import { riskErasures } from './privacy/privacy.worker.js';

/** Transaction risk: evaluate (rules, graph, sanctions), hot-reloaded CEL rules, read-only Cypher. */
export const riskSubgraph: SubgraphDefinition<RiskDeps> = {
  name: 'risk',
  resolvers: [
    statusResolver('risk'),
    EvaluationResolver,
    RuleResolver,
    RuleVersionResolver,
    RuleAuditResolver,
    GraphQueryResolver,
    AccountResolver,
    AccountUserResolver,
    SanctionsResolver,
    RiskDataExportResolver,
  ],
  // reached only through federation (User references from other subgraphs, the export from verification)
  orphanedTypes: [UserType, UserDataExportType],
  referenceResolvers: {
    RiskEvaluation: resolveEvaluationReference,
    RiskAccount: resolveAccountReference,
    User: resolveUserReference,
    UserDataExport: resolveRiskDataExportReference,
  },
};

export const riskEntities = [Evaluation, Rule, RuleVersion, RuleAudit];

const PRUNE_EVERY_MS = 5 * 60_000;

export const riskService: ServiceModule<RiskDeps> = {
  name: 'risk',
  definition: riskSubgraph,
  entities: riskEntities,
  webhookEvents: RISK_WEBHOOK_EVENTS,
  async setup(rt) {
    const c = rt.config;
    if (c.RISK_REVIEW_THRESHOLD >= c.RISK_BLOCK_THRESHOLD) {
      throw new ConfigError(
        `RISK_REVIEW_THRESHOLD (${c.RISK_REVIEW_THRESHOLD}) must be below RISK_BLOCK_THRESHOLD (${c.RISK_BLOCK_THRESHOLD})`,
      );
    }
    const logger = rt.logger.child({ service: 'risk' });
    const rules = new RulesStore(rt.pool);
    const ruleCache = new RuleCache(rt.databaseUrl, rt.pool, logger);
    // one in-memory screening index per process, shared with verification (npm start runs both)
    const screening = await acquireScreeningEngine({ pool: rt.pool, logger: rt.logger.child({ component: 'screening' }) });
    const sanctions = new SanctionsLayer(screening.engine, c.RISK_SANCTIONS_THRESHOLD);
    const engine = new EvaluationEngine({
      pool: rt.pool,
      rules: ruleCache,
      store: rules,
      sanctions,
      thresholds: { review: c.RISK_REVIEW_THRESHOLD, block: c.RISK_BLOCK_THRESHOLD },
      cycleWindowHours: c.RISK_CYCLE_WINDOW_HOURS,
      degreeCap: c.RISK_GRAPH_DEGREE_CAP,
      ruleBudgetMs: c.RULE_TIME_BUDGET_MS,
      logger,
    });
    // graph queries are slow by nature: a small pool of their own, so they cannot hold the
    // connections evaluations and everything else in this process need
    const graphPool = new pg.Pool({
      connectionString: rt.databaseUrl,
      max: c.GRAPH_QUERY_POOL_SIZE,
      connectionTimeoutMillis: c.GRAPH_QUERY_TIMEOUT_MS,
    });
    graphPool.on('error', (err) => logDatabaseError(logger, err, 'graph query pool'));
    graphPool.on('connect', (client) => client.on('error', (err) => logDatabaseError(logger, err, 'graph query client')));
    const graphQuery = new GraphQueryExecutor({
      pool: graphPool,
      timeoutMs: c.GRAPH_QUERY_TIMEOUT_MS,
      maxRows: c.GRAPH_QUERY_MAX_ROWS,
      maxHops: c.GRAPH_QUERY_MAX_HOPS,
      logger,
    });
    let prune: NodeJS.Timeout | null = null;
    // risk's part of every erasure (risk keeps none of the kinds retention applies to)
    const erasures = riskErasures({ pool: rt.pool, events: rt.events, logger, sweepMs: c.PRIVACY_SWEEP_MS });
    return {
      deps: { config: c, engine, rules, ruleCache, graphQuery, sanctions, accounts: new AccountStore(rt.pool), pool: rt.pool },
      async start() {
        await ruleCache.start();
        erasures.start();
        prune = setInterval(
          () => void pruneVelocity(rt.pool).catch((err) => logger.warn({ err }, 'velocity pruning failed')),
          PRUNE_EVERY_MS,
        );
        prune.unref();
      },
      async stop() {
        await erasures.stop();
        if (prune) clearInterval(prune);
        await ruleCache.stop();
        await screening.release();
        await graphPool.end();
      },
    };
  },
};
