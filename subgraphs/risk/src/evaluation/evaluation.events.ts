import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Evaluation } from './evaluation.entity.js';

export const EVALUATION_RESOURCE = 'risk_evaluation';
/** One event name per action, so subscriptions filter on the notice without reading the row. */
export const evaluationEvent = (action: string) => `evaluation.${action}`;

/** The evaluation as subscriptions show it (no tenant columns). */
export function evaluationSnapshot(e: Evaluation): Record<string, unknown> {
  const { organizationId: _org, environment: _env, ...visible } = e;
  return JSON.parse(JSON.stringify(visible)) as Record<string, unknown>;
}

/**
 * Inserts the evaluation and its outbox row in ONE statement (inside the evaluation's
 * transaction): the outbox trigger NOTIFYs on commit, which feeds `evaluationCreated` on every
 * instance. The same row shape as platform/events/outbox.ts's recordEvent.
 */
export async function recordEvaluation(db: pg.ClientBase, e: Evaluation): Promise<void> {
  const event = evaluationEvent(e.action);
  const payload = {
    event,
    timestamp: e.createdAt.toISOString(),
    data: { evaluationId: e.id, transactionId: e.transactionId, score: e.score, action: e.action, mock: e.mock },
  };
  await db.query({
    name: 'risk_record_evaluation',
    text: `with ev as (
       insert into risk.evaluations (id, organization_id, environment, transaction_id, score, action, mock, amount, currency, sender, receiver,
         channel, metadata, layers, layer_scores, reasons, rules_fired, rule_errors, graph_patterns, sanctions_hits, facts, rules_revision,
         latency_ms, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)
       returning id, organization_id, environment, created_at)
     insert into platform.outbox_events (event_id, organization_id, environment, event, resource_type, resource_id, user_id, payload, snapshot, created_at)
     select $25, organization_id, environment, $26, $27, id::text, null, $28, $29, created_at from ev`,
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
      randomUUID(),
      event,
      EVALUATION_RESOURCE,
      JSON.stringify(payload),
      JSON.stringify(evaluationSnapshot(e)),
    ],
  });
}
