import { Arg, Args, Ctx, Directive, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { ConnectionArgs, LIST_SIZE, type Connection } from '../../../../platform/graphql/connection.js';
import { envelopeOf } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { ListKind } from '../../../../screening/types.js';
import type { RiskShared } from '../risk.shared.js';
import type { SanctionsHit } from '../sanctions/sanctions.layer.js';
import type { Evaluation } from './evaluation.entity.js';
import { EvaluationService, type EvaluationFilter } from './evaluation.service.js';
import { EvaluateTransactionInput, RiskEvaluationCreatedFilter, RiskEvaluationFilter } from './evaluation.inputs.js';
import {
  EvaluateTransactionPayload,
  RiskEvaluationConnection,
  RiskEvaluationEvent,
  RiskEvaluationType,
  type RiskSanctionsHit,
} from './evaluation.type.js';
import { EVALUATION_RESOURCE, evaluationEvent } from './evaluation.events.js';

type Ctx = SubgraphContext<RiskShared>;

export function evaluationService(ctx: Ctx, permission: 'evaluate' | 'evaluations:read'): EvaluationService {
  return new EvaluationService(ctx.em, ctx.deps.engine, authorize(ctx, 'risk', permission));
}

const toSanctionsHit = (h: SanctionsHit): RiskSanctionsHit => ({
  party: h.party,
  account: { id: h.account },
  name: h.name,
  hit: {
    // risk screens against every loaded list; a hit's list is its source
    listName: h.source,
    source: h.source,
    kind: h.kind as ListKind,
    externalId: h.externalId,
    entityType: h.entityType ?? 'UNKNOWN',
    primaryName: h.primaryName,
    matchedName: h.matchedName,
    score: h.score,
    programs: h.programs ?? [],
    addedDate: h.addedDate ?? null,
    listVersion: h.listVersion,
  },
});

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
    sanctionsHits: (e.sanctionsHits as SanctionsHit[]).map(toSanctionsHit),
    transaction: {
      amount: e.amount,
      currency: e.currency,
      sender: { id: e.sender },
      receiver: { id: e.receiver },
      channel: e.channel ?? null,
      metadata: e.metadata ?? {},
    },
    facts: e.facts ?? {},
    rulesRevision: String(e.rulesRevision),
    createdAt: e.createdAt instanceof Date ? e.createdAt : new Date(e.createdAt),
  };
}

export const toEvaluationConnection = (c: Connection<Evaluation>): Connection<RiskEvaluationType> => ({
  ...c,
  edges: c.edges.map((edge) => ({ ...edge, node: toEvaluationType(edge.node) })),
  nodes: c.nodes.map(toEvaluationType),
});

/** Evaluations of one account (as sender or receiver), for the account's `evaluations`. */
export async function accountEvaluations(ctx: Ctx, filter: EvaluationFilter, page: ConnectionArgs) {
  return toEvaluationConnection(await evaluationService(ctx, 'evaluations:read').list(filter, page));
}

@Resolver(() => RiskEvaluationType)
export class EvaluationResolver {
  @Mutation(() => EvaluateTransactionPayload, {
    description:
      'Scores a transaction with the rules, the transaction graph and sanctions screening, and says what to do with it; the evaluation is kept',
  })
  async evaluateTransaction(@Arg('input', { description: 'The transaction' }) input: EvaluateTransactionInput, @Ctx() ctx: Ctx) {
    return { riskEvaluation: toEvaluationType(await evaluationService(ctx, 'evaluate').evaluate(input)) };
  }

  @Query(() => RiskEvaluationType, { nullable: true, description: 'One evaluation; null when there is none with this id' })
  async riskEvaluation(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    const e = await evaluationService(ctx, 'evaluations:read').find(id);
    return e && toEvaluationType(e);
  }

  @Directive(LIST_SIZE)
  @Query(() => RiskEvaluationConnection, {
    description:
      'The organization’s evaluations, newest first: with an action (REVIEW, BLOCK: the review queues), of accounts, in a period…',
  })
  async riskEvaluations(
    @Arg('filter', () => RiskEvaluationFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: RiskEvaluationFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return toEvaluationConnection(await evaluationService(ctx, 'evaluations:read').list(filter ?? {}, page));
  }

  @Subscription(() => RiskEvaluationEvent, {
    description: 'Every new evaluation of the organization, as it is made (optionally only those with one action)',
    subscribe: ({ args, context }) => {
      const action = (args as { filter?: RiskEvaluationCreatedFilter | null }).filter?.action;
      const access = { service: 'risk', permission: 'evaluations:read' } as const;
      return tenantEvents(context as Ctx, access, EVALUATION_RESOURCE, { events: action ? [evaluationEvent(action)] : null });
    },
  })
  riskEvaluationCreated(
    @Root() event: StreamedEvent,
    @Arg('filter', () => RiskEvaluationCreatedFilter, { nullable: true, description: 'Which ones; all when absent' })
    _filter?: RiskEvaluationCreatedFilter | null,
  ) {
    return envelopeOf(event, toEvaluationType);
  }
}

/** Federation: other subgraphs reference an evaluation by id (tenant-checked). */
export async function resolveEvaluationReference(ref: { id: string }, ctx: Ctx) {
  const e = await evaluationService(ctx, 'evaluations:read').find(ref.id);
  return e && toEvaluationType(e);
}
