import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { envelopeOf } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import { readUpload } from '../../../../platform/graphql/upload.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { VerificationContext } from '../verification.shared.js';
import { UserType } from '../user/user.type.js';
import { LivenessService } from './liveness.service.js';
import { livenessRecord, type LivenessRecord } from './liveness.record.js';
import { LIVENESS_RESOURCE } from './liveness.events.js';
import {
  CreateLivenessSessionInput,
  LivenessSessionFilter,
  SubmitLivenessChallengeInput,
  SubmitLivenessReferenceSelfieInput,
} from './liveness.inputs.js';
import {
  CreateLivenessSessionPayload,
  LivenessSessionConnection,
  LivenessSessionEvent,
  LivenessSessionType,
  SubmitLivenessChallengePayload,
  SubmitLivenessReferenceSelfiePayload,
} from './liveness.type.js';

type Ctx = VerificationContext;

/** `submit`: create a session and send its photos (a session token's own user's only); `forUser`: the user a session is created for. */
function service(ctx: Ctx, access: 'read' | 'submit', forUser?: string): LivenessService {
  const tenant = authorize(ctx, 'verification', `liveness:${access}`, forUser);
  const { files, vision, config } = ctx.deps;
  return new LivenessService(ctx.em, tenant, { files, vision, sessionSeconds: config.LIVENESS_SESSION_SECONDS });
}

const DATES = ['expiresAt', 'createdAt', 'updatedAt', 'completedAt'];
const revive = (v: unknown) => (typeof v === 'string' ? new Date(v) : v);
/** Dates travel as ISO strings inside events; the GraphQL type wants Date objects. */
function fromSnapshot(s: Record<string, unknown>): LivenessRecord {
  const record = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, DATES.includes(k) ? revive(v) : v])) as unknown as LivenessRecord;
  return { ...record, challenges: record.challenges.map((c) => ({ ...c, completedAt: revive(c.completedAt) as Date | null })) };
}

@Resolver(() => LivenessSessionType)
export class LivenessResolver {
  @Query(() => LivenessSessionType, { nullable: true, description: 'One liveness session; null when there is none with this id' })
  async livenessSession(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    const session = await service(ctx, 'read').find(id);
    return session && livenessRecord(session);
  }

  @Directive(LIST_SIZE)
  @Query(() => LivenessSessionConnection, {
    description: 'The organization’s liveness sessions, newest first: of one user, or in one status',
  })
  async livenessSessions(
    @Arg('filter', () => LivenessSessionFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: LivenessSessionFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    const connection = await service(ctx, 'read').list(filter ?? {}, page);
    return {
      ...connection,
      nodes: connection.nodes.map(livenessRecord),
      edges: connection.edges.map((edge) => ({ ...edge, node: livenessRecord(edge.node) })),
    };
  }

  @FieldResolver(() => UserType, { description: 'The user it checks' })
  user(@Root() s: LivenessSessionType): UserType {
    return { id: s.userId };
  }

  @Mutation(() => CreateLivenessSessionPayload, {
    description: 'Starts a liveness session for a user: 2 or 3 random challenges, open for 10 minutes; its token is shown only here',
  })
  async createLivenessSession(@Arg('input') input: CreateLivenessSessionInput, @Ctx() ctx: Ctx) {
    const { session, sessionToken } = await service(ctx, 'submit', input.userId).create(input.userId);
    return { livenessSession: livenessRecord(session), sessionToken };
  }

  @Mutation(() => SubmitLivenessChallengePayload, {
    description:
      'Sends one photo of a challenge, judged at once (a NOD takes two photos: the same challengeId twice, chin down then chin up). ' +
      'A photo without exactly one clear face is refused and may be sent again; the session is decided when every challenge ' +
      'is judged and the reference selfie is in',
  })
  async submitLivenessChallenge(@Arg('input') input: SubmitLivenessChallengeInput, @Ctx() ctx: Ctx) {
    const liveness = service(ctx, 'submit');
    const photo = await readUpload(input.photo, 'photo');
    return { livenessSession: livenessRecord(await liveness.submitChallenge(input.sessionToken, input.challengeId, photo.bytes)) };
  }

  @Mutation(() => SubmitLivenessReferenceSelfiePayload, {
    description: 'Sends the reference selfie (once per session, facing the camera) that every challenge photo must match',
  })
  async submitLivenessReferenceSelfie(@Arg('input') input: SubmitLivenessReferenceSelfieInput, @Ctx() ctx: Ctx) {
    const liveness = service(ctx, 'submit');
    const selfie = await readUpload(input.selfie, 'selfie');
    return { livenessSession: livenessRecord(await liveness.submitReferenceSelfie(input.sessionToken, selfie.bytes)) };
  }

  @Subscription(() => LivenessSessionEvent, {
    description: 'Every change of one liveness session',
    subscribe: ({ args, context }) =>
      tenantEvents(context as Ctx, { service: 'verification', permission: 'liveness:read' }, LIVENESS_RESOURCE, {
        resourceId: (args as { id: string }).id,
      }),
  })
  livenessSessionUpdated(@Root() event: StreamedEvent, @Arg('id', () => ID, { description: 'The session to follow' }) _id: string) {
    return envelopeOf(event, fromSnapshot);
  }

  @Subscription(() => LivenessSessionEvent, {
    description: 'Every change of every liveness session of one user, present and future',
    subscribe: ({ args, context }) =>
      tenantEvents(context as Ctx, { service: 'verification', permission: 'liveness:read' }, LIVENESS_RESOURCE, {
        userId: (args as { userId: string }).userId,
      }),
  })
  livenessSessionUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The user whose sessions to follow' }) _userId: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }
}

/** Federation: other subgraphs reference a liveness session by id (tenant-checked). */
export async function resolveLivenessReference(ref: { id: string }, ctx: Ctx) {
  const session = await service(ctx, 'read').find(ref.id);
  return session && livenessRecord(session);
}

/** The user's liveness sessions, as fields of `User`. */
@Resolver(() => UserType)
export class LivenessUserFields {
  @Directive(LIST_SIZE)
  @FieldResolver(() => LivenessSessionConnection, { description: 'The user’s liveness sessions, newest first' })
  livenessSessions(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new LivenessResolver().livenessSessions({ userId: user.id }, page, ctx);
  }
}
