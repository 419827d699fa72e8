import DataLoader from 'dataloader';
import { UserType } from '../user/user.type.js';
import { actorOf } from '../../../../platform/audit/audit.js';
import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { ConnectionArgs, LIST_SIZE, type Connection } from '../../../../platform/graphql/connection.js';
import { envelopeOf, reviveDates } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { ScreeningHitType } from '../../../../screening/screening-hit.type.js';
import type { VerificationContext } from '../verification.shared.js';
import type { AmlJobs } from './aml.service.js';
import type { AmlHit, AmlScreening } from './aml.entity.js';
import { AML_BATCH_RESOURCE, AML_RESOURCE, withCallback, type AmlBatchView } from './aml.events.js';
import { AmlService, type AmlView, type BatchLine } from './aml.service.js';
import {
  AmlBatchEvent,
  AmlBatchSubjectConnection,
  AmlBatchSubjectType,
  AmlBatchType,
  AmlMatchType,
  AmlScreeningConnection,
  AmlScreeningEvent,
  AmlScreeningFilter,
  AmlScreeningType,
  CreateAmlBatchInput,
  CreateAmlBatchPayload,
  ResolveAmlMatchInput,
  ResolveAmlMatchPayload,
  ScreenAmlInput,
  ScreenAmlPayload,
  toExplanation,
} from './aml.type.js';

type Ctx = VerificationContext<{ amlJobs: AmlJobs }>;
const SCREENING_READ = { service: 'verification', permission: 'screening:read' } as const;

function service(ctx: Ctx, access: 'read' | 'write'): AmlService {
  const tenant = authorize(ctx, 'verification', `screening:${access}`);
  const { screening, amlCatalog: catalog, amlJobs: jobs, config, keyring } = ctx.deps;
  return new AmlService(ctx.em, tenant, { screening, catalog, jobs, keyring, allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS });
}

/**
 * Records reached through another one (a screening's batch, a batch's subjects) are shown to whoever
 * could reach that one: a key that may only screen sees the batch of the screening it made.
 */
function related(ctx: Ctx): AmlService {
  try {
    return service(ctx, 'read');
  } catch {
    return service(ctx, 'write');
  }
}

/**
 * The batches of the screenings being answered, read together (one read for a page of screenings);
 * nothing is cached between ticks, so a subscription's later events see the batch as it is then.
 */
const batchLoaders = new WeakMap<Ctx, DataLoader<string, AmlBatchView | null>>();
function batchOf(ctx: Ctx, id: string): Promise<AmlBatchView | null> {
  let loader = batchLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(
      async (ids: readonly string[]) => {
        const found = await related(ctx).findBatches(ids);
        return ids.map((one) => found.find((b) => b.id === one) ?? null);
      },
      { cache: false },
    );
    batchLoaders.set(ctx, loader);
  }
  return loader.load(id);
}

const toHit = (h: AmlHit): ScreeningHitType => ({
  listName: h.source,
  source: h.source,
  kind: h.kind,
  externalId: h.externalId,
  entityType: h.entityType,
  primaryName: h.primaryName,
  matchedName: h.matchedName,
  score: h.score,
  programs: h.programs,
  addedDate: h.addedDate ?? null,
  listVersion: h.listVersion,
});

const toMatch = (h: AmlHit): AmlMatchType => ({
  id: h.id,
  hit: toHit(h),
  explanation: toExplanation(h.explanation),
  resolution: h.resolution,
  resolvedBy: h.resolvedBy ?? null,
  resolutionReason: h.resolutionReason ?? null,
  resolvedAt: h.resolvedAt ?? null,
});

export function toAmlScreening({ screening, hits }: AmlView): AmlScreeningType {
  return { ...screening, matches: hits.map(toMatch) };
}

const toScreenings = (page: Connection<AmlView>): Connection<AmlScreeningType> => {
  const edges = page.edges.map((edge) => ({ cursor: edge.cursor, node: toAmlScreening(edge.node) }));
  return { ...page, edges, nodes: edges.map((edge) => edge.node) };
};

const toSubject = (line: BatchLine): AmlBatchSubjectType => ({
  ...line,
  screening: line.screening ? toAmlScreening(line.screening) : null,
});

const DATES = ['checkedAt', 'resolvedAt', 'createdAt', 'updatedAt', 'completedAt', 'callbackDeliveredAt', 'callbackNextAttemptAt'];
const revive = (o: Record<string, unknown>) => reviveDates<Record<string, unknown>>(o, DATES);

/** Outbox snapshots carry dates as ISO strings; the GraphQL types want Date objects. */
function screeningFromSnapshot(s: Record<string, unknown>): AmlScreeningType {
  const { matches, ...rest } = s as { matches: Array<Record<string, unknown>> };
  return toAmlScreening({
    screening: revive(rest) as unknown as AmlScreening,
    hits: (matches ?? []).map(
      (m) =>
        ({ ...m, resolvedAt: typeof m.resolvedAt === 'string' ? new Date(m.resolvedAt) : (m.resolvedAt ?? null) }) as unknown as AmlHit,
    ),
  });
}

@Resolver(() => AmlScreeningType)
export class AmlResolver {
  @Mutation(() => ScreenAmlPayload, {
    description: 'Screens one person against the loaded lists now; refused (UNAVAILABLE) while no list of the kinds asked for is loaded',
  })
  async screenAml(@Arg('input', { description: 'The person to screen' }) input: ScreenAmlInput, @Ctx() ctx: Ctx) {
    return { amlScreening: toAmlScreening(await service(ctx, 'write').screen(input)) };
  }

  @Query(() => AmlScreeningType, { nullable: true, description: 'One AML screening; null when there is none with this id' })
  async amlScreening(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    const view = await service(ctx, 'read').find(id);
    return view ? toAmlScreening(view) : null;
  }

  @Directive(LIST_SIZE)
  @Query(() => AmlScreeningConnection, {
    description:
      'The organization’s AML screenings, newest first: of one person, with one outcome, or with matches still open (the review queue)',
  })
  async amlScreenings(
    @Arg('filter', () => AmlScreeningFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: AmlScreeningFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return toScreenings(await service(ctx, 'read').list(filter ?? {}, page));
  }

  @FieldResolver(() => AmlBatchType, { nullable: true, description: 'The batch that screened this person, if one did' })
  batch(@Root() screening: AmlScreeningType, @Ctx() ctx: Ctx) {
    return screening.batchId ? batchOf(ctx, screening.batchId) : null;
  }

  @Mutation(() => ResolveAmlMatchPayload, {
    description:
      'A reviewer resolves one match as a true or false positive, with who and why; a match is resolved once (then a CONFLICT user error)',
  })
  async resolveAmlMatch(@Arg('input', { description: 'The match and its resolution' }) input: ResolveAmlMatchInput, @Ctx() ctx: Ctx) {
    return {
      amlScreening: toAmlScreening(
        await service(ctx, 'write').resolveMatch(input.screeningId, input.matchId, input, actorOf(ctx.principal)),
      ),
    };
  }

  @Subscription(() => AmlScreeningEvent, {
    description: 'Every change of one AML screening: its matches resolved, its status after each',
    subscribe: ({ args, context }) =>
      tenantEvents(context as Ctx, SCREENING_READ, AML_RESOURCE, { resourceId: (args as { id: string }).id }),
  })
  amlScreeningUpdated(@Root() event: StreamedEvent, @Arg('id', () => ID, { description: 'The screening to follow' }) _id: string) {
    return envelopeOf(event, screeningFromSnapshot);
  }

  @Subscription(() => AmlScreeningEvent, {
    description: 'Every new AML screening of one person and every change of them',
    subscribe: ({ args, context }) =>
      tenantEvents(context as Ctx, SCREENING_READ, AML_RESOURCE, { userId: (args as { userId: string }).userId }),
  })
  amlScreeningUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The person whose screenings to follow' }) _userId: string,
  ) {
    return envelopeOf(event, screeningFromSnapshot);
  }

  @Subscription(() => AmlScreeningEvent, {
    description:
      'Every new AML screening of the organization (a session token: of its user) and every change of them: the unresolved matches’ review queue feed',
    subscribe: ({ context }) => tenantEvents(context as Ctx, SCREENING_READ, AML_RESOURCE),
  })
  amlScreeningUpdatedForOrganization(@Root() event: StreamedEvent) {
    return envelopeOf(event, screeningFromSnapshot);
  }
}

@Resolver(() => AmlBatchType)
export class AmlBatchResolver {
  @Mutation(() => CreateAmlBatchPayload, {
    description: 'Accepts up to 100 people to screen in the background; callbackUrl is called, signed, when every one is done',
  })
  async createAmlBatch(
    @Arg('input', { description: 'The people to screen and where to call back' }) input: CreateAmlBatchInput,
    @Ctx() ctx: Ctx,
  ) {
    const { batch, callbackSecret } = await service(ctx, 'write').createBatch(input);
    // no callback delivery before the batch completes
    return { amlBatch: withCallback(batch, null), callbackSecret };
  }

  @Query(() => AmlBatchType, { nullable: true, description: 'One AML batch with its progress; null when there is none with this id' })
  amlBatch(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx): Promise<AmlBatchView | null> {
    return service(ctx, 'read').findBatch(id);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => AmlBatchSubjectConnection, { description: 'The people of the batch in submission order, each with its outcome' })
  async subjects(@Root() batch: AmlBatchType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    const lines = await related(ctx).batchSubjects(batch.id, page);
    const edges = lines.edges.map((edge) => ({ cursor: edge.cursor, node: toSubject(edge.node) }));
    return { ...lines, edges, nodes: edges.map((edge) => edge.node) };
  }

  @Subscription(() => AmlBatchEvent, {
    description: 'Progress of one AML batch: after each subject, on completion, and after each callback attempt',
    subscribe: ({ args, context }) =>
      tenantEvents(context as Ctx, SCREENING_READ, AML_BATCH_RESOURCE, { resourceId: (args as { id: string }).id }),
  })
  amlBatchUpdated(@Root() event: StreamedEvent, @Arg('id', () => ID, { description: 'The batch to follow' }) _id: string) {
    return envelopeOf(event, (snapshot) => revive(snapshot) as unknown as AmlBatchType);
  }
}

/** The user's AML screenings, as fields of `User`. */
@Resolver(() => UserType)
export class AmlUserFields {
  @Directive(LIST_SIZE)
  @FieldResolver(() => AmlScreeningConnection, { description: 'The user’s AML screenings, newest first' })
  amlScreenings(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new AmlResolver().amlScreenings({ userId: user.id }, page, ctx);
  }
}
