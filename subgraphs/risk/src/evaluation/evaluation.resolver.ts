import { Arg, Args, Ctx, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { PageArgs } from '../../../../platform/graphql/pagination.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { RiskDeps } from '../deps.js';
import type { Evaluation } from './evaluation.entity.js';
import { EvaluationService } from './evaluation.service.js';
import { EvaluateTransactionInput, RiskEvaluationFilter } from './evaluation.inputs.js';
import { RiskActionEnum, RiskEvaluationPage, RiskEvaluationType } from './evaluation.type.js';
import { EVALUATION_RESOURCE, evaluationEvent } from './evaluation.events.js';

type Ctx = SubgraphContext<RiskDeps>;

function service(ctx: Ctx, permission: 'evaluate' | 'evaluations:read'): EvaluationService {
  return new EvaluationService(ctx.em, ctx.deps.engine, authorize(ctx, 'risk', permission));
}

/** Entity (or snapshot with ISO dates) → GraphQL type. */
export function toEvaluationType(e: Evaluation | Record<string, any>): RiskEvaluationType {
  const scores = e.layerScores ?? { rules: 0, graph: 0, sanctions: 0 };
  return {
    id: e.id,
    transactionId: e.transactionId,
    score: e.score,
    action: e.action,
    mock: e.mock,
    latencyMs: e.latencyMs,
    layers: {
      rules: { ...e.layers.rules, score: scores.rules },
      graph: { ...e.layers.graph, score: scores.graph },
      sanctions: { ...e.layers.sanctions, score: scores.sanctions },
    },
    reasons: e.reasons,
    rulesFired: e.rulesFired,
    ruleErrors: e.ruleErrors ?? [],
    graphPatterns: e.graphPatterns,
    sanctionsHits: e.sanctionsHits,
    transaction: {
      amount: e.amount,
      currency: e.currency,
      sender: e.sender,
      receiver: e.receiver,
      channel: e.channel ?? null,
      metadata: e.metadata ?? {},
    },
    facts: e.facts ?? {},
    rulesRevision: String(e.rulesRevision),
    createdAt: e.createdAt instanceof Date ? e.createdAt : new Date(e.createdAt),
  };
}

@Resolver(() => RiskEvaluationType)
export class EvaluationResolver {
  @Mutation(() => RiskEvaluationType, {
    description: 'POST /v1/evaluate (scope evaluate). 409 CONFLICT when transactionId was used before.',
  })
  async evaluateTransaction(@Arg('input') input: EvaluateTransactionInput, @Ctx() ctx: Ctx) {
    return toEvaluationType(await service(ctx, 'evaluate').evaluate(input));
  }

  @Query(() => RiskEvaluationType, { description: 'GET /v1/evaluations/{id} (scope evaluations:read)' })
  async riskEvaluation(@Arg('id', () => ID) id: string, @Ctx() ctx: Ctx) {
    return toEvaluationType(await service(ctx, 'evaluations:read').get(id));
  }

  @Query(() => RiskEvaluationPage, { description: 'Evaluations, newest first, with filters (scope evaluations:read)' })
  async riskEvaluations(
    @Arg('filter', () => RiskEvaluationFilter, { nullable: true }) filter: RiskEvaluationFilter | null,
    @Args() { page, limit }: PageArgs,
    @Ctx() ctx: Ctx,
  ) {
    const result = await service(ctx, 'evaluations:read').list(filter ?? {}, page, limit);
    return { ...result, data: result.data.map(toEvaluationType) };
  }

  @Subscription(() => RiskEvaluationType, {
    description: 'Every new evaluation of the organization (environment of the key), optionally only one action',
    subscribe: ({ args, context }) => {
      const { action } = args as { action?: string | null };
      const access = { service: 'risk', permission: 'evaluations:read' } as const;
      return tenantEvents(context as Ctx, access, EVALUATION_RESOURCE, { events: action ? [evaluationEvent(action)] : null });
    },
  })
  evaluationCreated(
    @Root() event: StreamedEvent,
    @Arg('action', () => RiskActionEnum, { nullable: true }) _action?: string | null,
  ): RiskEvaluationType {
    return toEvaluationType(event.snapshot);
  }
}

/** Federation: other subgraphs reference an evaluation by id (tenant-checked). */
export async function resolveEvaluationReference(ref: { id: string }, ctx: Ctx) {
  return toEvaluationType(await service(ctx, 'evaluations:read').get(ref.id));
}
