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
