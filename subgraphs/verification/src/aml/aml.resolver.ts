import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { PageArgs } from '../../../../platform/graphql/pagination.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import { invalid } from '../../../../platform/errors.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { VerificationDeps } from '../deps.js';
import type { AmlHit, AmlScreening } from './aml.entity.js';
import { AML_BATCH_RESOURCE, AML_RESOURCE, type AmlBatchView } from './aml.events.js';
import { AmlService, type AmlView } from './aml.service.js';
import {
  AmlBatchAcceptedType,
  AmlBatchInput,
  AmlBatchResultType,
  AmlBatchType,
  AmlMatchType,
  AmlScreeningInput,
  AmlScreeningPage,
  AmlScreeningType,
  ResolveAmlMatchInput,
} from './aml.type.js';

type Ctx = SubgraphContext<VerificationDeps>;
const SCREENING_READ = { service: 'verification', permission: 'screening:read' } as const;

function service(ctx: Ctx, access: 'read' | 'write'): AmlService {
  const tenant = authorize(ctx, 'verification', `screening:${access}`);
  const { screening, amlCatalog: catalog, amlJobs: jobs, config } = ctx.deps;
  return new AmlService(ctx.em, tenant, { screening, catalog, jobs, allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS });
}

const toMatch = (h: AmlHit): AmlMatchType => ({ ...h, listName: h.source });

export function toAmlScreening({ screening, hits }: AmlView): AmlScreeningType {
  return { ...screening, matches: hits.map(toMatch) };
}

const DATES = ['checkedAt', 'resolvedAt', 'createdAt', 'updatedAt', 'completedAt', 'callbackDeliveredAt', 'callbackNextAttemptAt'];
const revive = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, DATES.includes(k) && typeof v === 'string' ? new Date(v) : v]));

/** Outbox snapshots carry dates as ISO strings; the GraphQL types want Date objects. */
function screeningFromSnapshot(s: Record<string, unknown>): AmlScreeningType {
  const { matches, ...rest } = s as { matches: Array<Record<string, unknown>> };
  return {
    ...(revive(rest) as unknown as AmlScreening),
    matches: (matches ?? []).map((m) =>
      toMatch({
        ...m,
        resolvedAt: typeof m.resolvedAt === 'string' ? new Date(m.resolvedAt) : (m.resolvedAt ?? null),
      } as unknown as AmlHit),
    ),
  };
}

@Resolver(() => AmlScreeningType)
export class AmlResolver {
  @Mutation(() => AmlScreeningType, { description: 'POST /screening/aml: screens one person against the loaded lists now' })
  async screenAml(@Arg('input') input: AmlScreeningInput, @Ctx() ctx: Ctx): Promise<AmlScreeningType> {
    return toAmlScreening(await service(ctx, 'write').screen(input));
  }

  @Query(() => AmlScreeningType, { description: 'GET /screening/aml/{id}' })
  async amlScreening(@Arg('id', () => ID) id: string, @Ctx() ctx: Ctx): Promise<AmlScreeningType> {
    return toAmlScreening(await service(ctx, 'read').get(id));
  }

  @Query(() => AmlScreeningPage, { description: 'GET /screening/aml/user/{userId}, newest first' })
  async amlScreeningsByUser(@Arg('userId') userId: string, @Args() { page, limit }: PageArgs, @Ctx() ctx: Ctx): Promise<AmlScreeningPage> {
    const result = await service(ctx, 'read').listByUser(userId, page, limit);
    return { ...result, data: result.data.map(toAmlScreening) };
  }

  @Mutation(() => AmlScreeningType, { description: 'A reviewer resolves one match as a true or false positive (kept with who and why)' })
  async resolveAmlMatch(
    @Arg('screeningId', () => ID) screeningId: string,
    @Arg('matchId', () => ID) matchId: string,
    @Arg('input') input: ResolveAmlMatchInput,
    @Ctx() ctx: Ctx,
  ): Promise<AmlScreeningType> {
    return toAmlScreening(await service(ctx, 'write').resolveMatch(screeningId, matchId, input));
  }

  @Subscription(() => AmlScreeningType, {
    description: 'Every change of one screening (id) or of all screenings of a user (userId): aml.clear, aml.flagged, aml.match_resolved',
    subscribe: ({ args, context }) => {
      const { id, userId } = args as { id?: string; userId?: string };
      if (!id && !userId) throw invalid('Give id or userId');
      return tenantEvents(context as Ctx, SCREENING_READ, AML_RESOURCE, { resourceId: id, userId });
    },
  })
  amlScreeningUpdated(
    @Root() event: StreamedEvent,
    @Arg('id', () => ID, { nullable: true }) _id?: string,
    @Arg('userId', { nullable: true }) _userId?: string,
  ): AmlScreeningType {
    return screeningFromSnapshot(event.snapshot);
  }
}

@Resolver(() => AmlBatchType)
export class AmlBatchResolver {
  @Mutation(() => AmlBatchAcceptedType, {
    description: 'POST /screening/aml/batch (202): up to 100 subjects, screened by a job; callbackUrl is called when done',
  })
  async createAmlBatch(@Arg('input') input: AmlBatchInput, @Ctx() ctx: Ctx): Promise<AmlBatchAcceptedType> {
    const { batch, callbackSecret } = await service(ctx, 'write').createBatch(input);
    return {
      id: batch.id,
      batchId: batch.id,
      status: batch.status,
      total: batch.total,
      callbackUrl: batch.callbackUrl ?? null,
      callbackSecret,
      createdAt: batch.createdAt,
      message: callbackSecret
        ? 'Batch accepted. The callback is signed with callbackSecret like webhooks; store it: it will not be shown again.'
        : 'Batch accepted. Read its status with amlBatch(id) or GET /screening/aml/batch/{id}.',
    };
  }

  @Query(() => AmlBatchType, { description: 'GET /screening/aml/batch/{id}: status, counts and per-subject results' })
  amlBatch(@Arg('id', () => ID) id: string, @Ctx() ctx: Ctx): Promise<AmlBatchView> {
    return service(ctx, 'read').getBatch(id);
  }

  @FieldResolver(() => [AmlBatchResultType], { description: 'One line per subject, in submission order' })
  async results(@Root() batch: AmlBatchType, @Ctx() ctx: Ctx): Promise<AmlBatchResultType[]> {
    const lines = await service(ctx, 'read').batchResults(batch.id);
    return lines.map((l) => ({ ...l, screening: l.screening ? toAmlScreening(l.screening) : null }));
  }

  @Subscription(() => AmlBatchType, {
    description: 'Progress of a batch: aml.batch_progress after each subject, aml.batch_complete, aml.batch_callback',
    subscribe: ({ args, context }) => {
      const { id } = args as { id: string };
      return tenantEvents(context as Ctx, SCREENING_READ, AML_BATCH_RESOURCE, { resourceId: id });
    },
  })
  amlBatchUpdated(@Root() event: StreamedEvent, @Arg('id', () => ID) _id: string): AmlBatchType {
    return revive(event.snapshot) as unknown as AmlBatchType;
  }
}
