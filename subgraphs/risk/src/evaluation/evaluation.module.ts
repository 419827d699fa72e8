import type { RiskCapability } from '../risk.shared.js';
import { Evaluation } from './evaluation.entity.js';
import { RISK_WEBHOOK_EVENTS } from './evaluation.events.js';
import type { TransactionInput } from './evaluation.validation.js';
import { EvaluationResolver, resolveEvaluationReference } from './evaluation.resolver.js';

/** Transaction evaluation: rules, graph and sanctions layers, one decision. */
export const evaluationCapability: RiskCapability = {
  name: 'evaluation',
  resolvers: [EvaluationResolver],
  references: { RiskEvaluation: resolveEvaluationReference },
  entities: [Evaluation],
  webhookEvents: RISK_WEBHOOK_EVENTS,
  // evaluations forwarded by the processes that do not own the tenant's graph
  routes: (app, deps) => deps.graphs.route(app, (tenant, input) => deps.engine.evaluate(tenant, input as TransactionInput)),
};
