import type { RiskCapability } from '../risk.shared.js';
import { pruneVelocity } from '../graph/graph.store.js';
import { Evaluation } from './evaluation.entity.js';
import { RISK_WEBHOOK_EVENTS } from './evaluation.events.js';
import type { TransactionInput } from './evaluation.validation.js';
import { EvaluationResolver, resolveEvaluationReference } from './evaluation.resolver.js';

const PRUNE_EVERY_MS = 5 * 60_000;

/** Transaction evaluation: rules, graph and sanctions layers, one decision. */
export const evaluationCapability: RiskCapability = {
  name: 'evaluation',
  resolvers: [EvaluationResolver],
  references: { RiskEvaluation: resolveEvaluationReference },
  entities: [Evaluation],
  webhookEvents: RISK_WEBHOOK_EVENTS,
  // evaluations forwarded by the processes that do not own the tenant's graph
  routes: (app, deps) => deps.graphs.route(app, (tenant, input) => deps.engine.evaluate(tenant, input as TransactionInput)),
  workers: (deps) => {
    let prune: NodeJS.Timeout | null = null;
    // velocity windows older than the longest rule's are pruned in the background
    return [
      {
        start: () => {
          prune = setInterval(
            () => void pruneVelocity(deps.pool).catch((err) => deps.logger.warn({ err }, 'velocity pruning failed')),
            PRUNE_EVERY_MS,
          );
          prune.unref();
        },
        stop: async () => {
          if (prune) clearInterval(prune);
        },
      },
    ];
  },
};
