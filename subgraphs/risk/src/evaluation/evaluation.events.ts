import type pg from 'pg';
import { insertWithEvent } from '../../../../platform/events/outbox.js';
import type { Evaluation } from './evaluation.entity.js';
import { ACTIONS } from './evaluation.scoring.js';

export const EVALUATION_RESOURCE = 'risk_evaluation';
/** One event name per action, so subscriptions filter on the notice without reading the row. */
export const evaluationEvent = (action: string) => `evaluation.${action}`;

/** Webhooks may subscribe to every evaluation, or only to those to review or block. */
export const RISK_WEBHOOK_EVENTS = ACTIONS.map(evaluationEvent);

/** The events as subscriptions name them (EVALUATION_ALLOW…), in the product's words. */
export const RISK_EVENT_DESCRIPTIONS: Record<string, string> = {
  [evaluationEvent('allow')]: 'A transaction was evaluated: allow it',
  [evaluationEvent('review')]: 'A transaction was evaluated: hold it for review',
  [evaluationEvent('block')]: 'A transaction was evaluated: block it',
};

/** The evaluation as subscriptions show it (no tenant columns). */
export function evaluationSnapshot(e: Evaluation): Record<string, unknown> {
  const { organizationId: _org, environment: _env, ...visible } = e;
  return JSON.parse(JSON.stringify(visible)) as Record<string, unknown>;
}

/**
 * Inserts the evaluation and its outbox row in ONE statement (inside the evaluation's
 * transaction): the outbox trigger NOTIFYs on commit, which feeds `riskEvaluationCreated` on every
 * instance.
 */
export async function recordEvaluation(db: pg.ClientBase, e: Evaluation): Promise<void> {
  const insert = {
    text: `insert into risk.evaluations (id, organization_id, environment, transaction_id, score, action, mock, amount, currency, sender, receiver,
         channel, metadata, layers, layer_scores, reasons, rules_fired, rule_errors, graph_patterns, sanctions_hits, facts, rules_revision,
         latency_ms, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)
       returning id, organization_id, environment, created_at`,
    values: [
      e.id,
      e.organizationId,
      e.environment,
      e.transactionId,
      e.score,
      e.action,
      e.mock,
      e.amount,
      e.currency,
      e.sender,
      e.receiver,
      e.channel ?? null,
      JSON.stringify(e.metadata),
      JSON.stringify(e.layers),
      JSON.stringify(e.layerScores),
      JSON.stringify(e.reasons),
      JSON.stringify(e.rulesFired),
      JSON.stringify(e.ruleErrors),
      JSON.stringify(e.graphPatterns),
      JSON.stringify(e.sanctionsHits),
      JSON.stringify(e.facts),
      e.rulesRevision,
      e.latencyMs,
      e.createdAt,
    ],
  };
  const statement = insertWithEvent(insert, {
    event: evaluationEvent(e.action),
    resourceType: EVALUATION_RESOURCE,
    timestamp: e.createdAt,
    data: { evaluationId: e.id, transactionId: e.transactionId, score: e.score, action: e.action, mock: e.mock },
    snapshot: evaluationSnapshot(e),
  });
  await db.query({ name: 'risk_record_evaluation', ...statement });
}
