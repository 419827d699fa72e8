import { actorOf } from '../../../../platform/audit/audit.js';
import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { envelopeOf } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import { USER_ERASURE_RESOURCE, type ErasurePart, type UserErasureView } from '../../../../platform/privacy/erasure.js';
import type { RetentionPolicy } from '../../../../platform/privacy/retention.js';
import type { VerificationContext } from '../verification.shared.js';
import type { OtpDeps } from '../otp/otp.service.js';
import { PrivacyService } from './privacy.service.js';
import { EraseUserInput, ExportUserInput, UpdateRetentionPolicyInput, UserErasureFilter } from './privacy.inputs.js';
import {
  EraseUserPayload,
  ExportUserPayload,
  JSONScalar,
  RetentionPolicyType,
  UpdateRetentionPolicyPayload,
  UserDataExportType,
  UserErasureConnection,
  UserErasureEvent,
  UserErasureType,
  VERIFICATION_EXPORT_DESCRIPTION,
} from './privacy.type.js';

type Ctx = VerificationContext<{ otp: OtpDeps }>;

/** Erasure, export and retention: the `privacy` area (`privacy:read`, `privacy:write`) of verification keys. */
export function privacyService(ctx: Ctx, access: 'read' | 'write'): PrivacyService {
  return new PrivacyService(ctx.em, authorize(ctx, 'verification', `privacy:${access}`), ctx.deps);
}

const date = (v: unknown) => (v == null ? null : new Date(v as string));

/** The platform's view (or an event's snapshot of it) as the graph shows it. */
function toErasure(v: UserErasureView | Record<string, unknown>): UserErasureType {
  const e = v as UserErasureView;
  return {
    id: e.id,
    userId: e.userId,
    status: e.status,
    services: e.services.map((part: ErasurePart & { service: string }) => ({
      service: part.service,
      status: part.status,
      completedAt: date(part.completedAt),
      erased: Object.entries(part.erased).map(([kind, count]) => ({ kind, count })),
      attempts: part.attempts,
      lastError: part.lastError,
    })),
    createdAt: new Date(e.createdAt),
    updatedAt: new Date(e.updatedAt),
    completedAt: date(e.completedAt),
  };
}

function toPolicy(p: RetentionPolicy): RetentionPolicyType {
  return {
    documentsDays: p.days.documents,
    livenessFramesDays: p.days.livenessFrames,
    notificationBodiesDays: p.days.notificationBodies,
    providerResponsesDays: p.days.providerResponses,
    eventPayloadsDays: p.days.eventPayloads,
    customized: p.custom,
    updatedAt: p.updatedAt,
    lastEnforcedAt: p.lastEnforcedAt,
  };
}

const subscribe =
  (filter: 'resourceId' | 'userId') =>
  ({ args, context }: { args: Record<string, string>; context: unknown }) =>
    tenantEvents(context as Ctx, { service: 'verification', permission: 'privacy:read' }, USER_ERASURE_RESOURCE, {
      [filter]: args[filter === 'resourceId' ? 'id' : 'userId'],
    });

@Resolver(() => UserErasureType)
export class UserErasureResolver {
  @Query(() => UserErasureType, { nullable: true, description: 'One erasure; null when there is none with this id' })
  async userErasure(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    const found = await privacyService(ctx, 'read').find(id);
    return found && toErasure(found);
  }

  @Directive(LIST_SIZE)
  @Query(() => UserErasureConnection, { description: 'The organization’s erasures, newest first: of one user, or in one status' })
  async userErasures(
    @Arg('filter', () => UserErasureFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: UserErasureFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    const found = await privacyService(ctx, 'read').list(filter ?? {}, page);
    const edges = found.edges.map((edge) => ({ cursor: edge.cursor, node: toErasure(edge.node) }));
    return { ...found, edges, nodes: edges.map((edge) => edge.node) };
  }

  @Mutation(() => EraseUserPayload, {
    description:
      'Erases a user’s personal data in every service, through the outbox: each service erases its part (a service that is down does it when it is back); user.erased tells webhooks and subscribers when all are done. A user with a pending erasure gets that one.',
  })
  async eraseUser(@Arg('input') input: EraseUserInput, @Ctx() ctx: Ctx) {
    const { created, erasure } = await privacyService(ctx, 'write').erase(input.userId, actorOf(ctx.principal));
    return { created, userErasure: toErasure(erasure) };
  }

  @Subscription(() => UserErasureEvent, { description: 'Every change of one erasure', subscribe: subscribe('resourceId') })
  userErasureUpdated(@Root() event: StreamedEvent, @Arg('id', () => ID, { description: 'The erasure to follow' }) _id: string) {
    return envelopeOf(event, toErasure);
  }

  @Subscription(() => UserErasureEvent, { description: 'Every change of every erasure of one user', subscribe: subscribe('userId') })
  userErasureUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The user whose erasures to follow' }) _userId: string,
  ) {
    return envelopeOf(event, toErasure);
  }
}

@Resolver(() => UserDataExportType)
export class UserDataExportResolver {
  @Mutation(() => ExportUserPayload, {
    description:
      'Everything held about a user in every service, as one document (a subject access request); files are links served to your organization only',
  })
  async exportUser(@Arg('input') input: ExportUserInput, @Ctx() ctx: Ctx) {
    return { userDataExport: await privacyService(ctx, 'read').exported(input.userId, actorOf(ctx.principal)) };
  }

  @FieldResolver(() => Date, { description: 'When the export was made' })
  exportedAt(@Root() e: UserDataExportType): Date {
    return e.exportedAt ?? new Date();
  }

  @FieldResolver(() => JSONScalar, { description: VERIFICATION_EXPORT_DESCRIPTION })
  verification(@Root() e: UserDataExportType, @Ctx() ctx: Ctx) {
    return privacyService(ctx, 'read').exportUser(e.id);
  }
}

/** Federation: the export entity, resolved for the caller's tenant (the other services add their parts). */
export function resolveUserDataExportReference(ref: { id: string }, ctx: Ctx) {
  return privacyService(ctx, 'read').exportOf(ref.id);
}

@Resolver()
export class RetentionResolver {
  @Query(() => RetentionPolicyType, { description: 'How long your personal data of each kind is kept (the defaults where you set none)' })
  async retentionPolicy(@Ctx() ctx: Ctx) {
    return toPolicy(await privacyService(ctx, 'read').readRetention());
  }

  @Mutation(() => UpdateRetentionPolicyPayload, {
    description: 'Sets retention periods: the scheduled sweep removes what is past them (from the database and the file store)',
  })
  async updateRetentionPolicy(@Arg('input') input: UpdateRetentionPolicyInput, @Ctx() ctx: Ctx) {
    const policy = await privacyService(ctx, 'write').updateRetention({
      documents: input.documentsDays,
      livenessFrames: input.livenessFramesDays,
      notificationBodies: input.notificationBodiesDays,
      providerResponses: input.providerResponsesDays,
      eventPayloads: input.eventPayloadsDays,
    });
    return { retentionPolicy: toPolicy(policy) };
  }
}
