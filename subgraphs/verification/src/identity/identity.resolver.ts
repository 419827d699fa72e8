import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { actorOf } from '../../../../platform/audit/audit.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { envelopeOf, reviveDates } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { VerificationContext } from '../verification.shared.js';
import type { DocumentDeps } from '../document/document.service.js';
import type { AmlJobs } from '../aml/aml.service.js';
import { IdentityService } from './identity.service.js';
import {
  CreateIdentityVerificationInput,
  IdentityVerificationFilter,
  RestartIdentityVerificationInput,
  ReviewIdentityVerificationInput,
} from './identity.inputs.js';
import {
  CreateIdentityVerificationPayload,
  IdentityVerificationConnection,
  IdentityVerificationEvent,
  IdentityVerificationType,
  RestartIdentityVerificationPayload,
  ReviewIdentityVerificationPayload,
} from './identity.type.js';
import { IDENTITY_RESOURCE } from './identity.events.js';
import { UserType } from '../user/user.type.js';
import { documentService } from '../document/document.resolver.js';
import { DocumentVerificationType } from '../document/document.type.js';
import { LivenessResolver } from '../liveness/liveness.resolver.js';
import { LivenessSessionType } from '../liveness/liveness.type.js';
import { AmlResolver } from '../aml/aml.resolver.js';
import { AmlScreeningType } from '../aml/aml.type.js';

/** Identity runs the other checks: it reads documents and screens (AML). */
type Ctx = VerificationContext<DocumentDeps & { amlJobs: AmlJobs }>;

function service(ctx: Ctx, access: 'read' | 'write'): IdentityService {
  return new IdentityService(ctx.em, authorize(ctx, 'verification', `identity:${access}`));
}

/** Dates travel as ISO strings inside events; the GraphQL type wants Date objects. */
function fromSnapshot(s: Record<string, unknown>): IdentityVerificationType {
  return reviveDates(s, ['verifiedAt', 'reviewedAt', 'invalidatedAt', 'createdAt', 'updatedAt']);
}

@Resolver(() => IdentityVerificationType)
export class IdentityResolver {
  @Query(() => IdentityVerificationType, { nullable: true, description: 'One identity verification; null when there is none with this id' })
  identityVerification(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'read').find(id);
  }

  @Directive(LIST_SIZE)
  @Query(() => IdentityVerificationConnection, {
    description: 'The organization’s identity verifications, newest first: of one user, or in one status (the review queue)',
  })
  identityVerifications(
    @Arg('filter', () => IdentityVerificationFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: IdentityVerificationFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return service(ctx, 'read').list(filter ?? {}, page);
  }

  @FieldResolver(() => UserType, { description: 'The user it verifies' })
  user(@Root() v: IdentityVerificationType): UserType {
    return { id: v.userId };
  }

  @FieldResolver(() => IdentityVerificationType, {
    nullable: true,
    description: 'The verification that replaced this one (after a restart)',
  })
  replacedBy(@Root() v: IdentityVerificationType, @Ctx() ctx: Ctx) {
    return v.replacedById ? service(ctx, 'read').find(v.replacedById) : null;
  }

  @FieldResolver(() => DocumentVerificationType, { nullable: true, description: 'The document verification its document step used' })
  document(@Root() v: IdentityVerificationType, @Ctx() ctx: Ctx) {
    return v.documentVerificationId ? documentService(ctx, 'read').find(v.documentVerificationId) : null;
  }

  @FieldResolver(() => LivenessSessionType, { nullable: true, description: 'The liveness session its liveness step used' })
  livenessSession(@Root() v: IdentityVerificationType, @Ctx() ctx: Ctx) {
    return v.livenessSessionId ? new LivenessResolver().livenessSession(v.livenessSessionId, ctx) : null;
  }

  @FieldResolver(() => AmlScreeningType, { nullable: true, description: 'The AML screening of the name on its document (ENHANCED)' })
  amlScreening(@Root() v: IdentityVerificationType, @Ctx() ctx: Ctx) {
    return v.amlScreeningId ? new AmlResolver().amlScreening(v.amlScreeningId, ctx) : null;
  }

  @FieldResolver(() => IdentityVerificationType, { nullable: true, description: 'The verification this one replaced (it was restarted)' })
  restartedFrom(@Root() v: IdentityVerificationType, @Ctx() ctx: Ctx) {
    return v.restartedFromId ? service(ctx, 'read').find(v.restartedFromId) : null;
  }

  @Mutation(() => CreateIdentityVerificationPayload, {
    description: 'Starts an identity verification for a user, or returns the user’s active one (created: false)',
  })
  async createIdentityVerification(@Arg('input') input: CreateIdentityVerificationInput, @Ctx() ctx: Ctx) {
    const { created, verification } = await service(ctx, 'write').create(input.userId, input.tier ?? 'BASIC');
    return { created, identityVerification: verification };
  }

  @Mutation(() => ReviewIdentityVerificationPayload, {
    description: 'Records a reviewer’s decision; only from MANUAL_REVIEW or PENDING (otherwise a CONFLICT user error)',
  })
  async reviewIdentityVerification(@Arg('input') input: ReviewIdentityVerificationInput, @Ctx() ctx: Ctx) {
    return { identityVerification: await service(ctx, 'write').review(input.id, input, actorOf(ctx.principal)) };
  }

  @Mutation(() => RestartIdentityVerificationPayload, {
    description: 'Invalidates a verification and starts a new PENDING one for the same user and tier',
  })
  async restartIdentityVerification(@Arg('input') input: RestartIdentityVerificationInput, @Ctx() ctx: Ctx) {
    return { identityVerification: await service(ctx, 'write').restart(input.id) };
  }

  @Subscription(() => IdentityVerificationEvent, {
    description: 'Every change of one identity verification',
    subscribe: ({ args, context }) =>
      tenantEvents(context as Ctx, { service: 'verification', permission: 'identity:read' }, IDENTITY_RESOURCE, {
        resourceId: (args as { id: string }).id,
      }),
  })
  identityVerificationUpdated(
    @Root() event: StreamedEvent,
    @Arg('id', () => ID, { description: 'The verification to follow' }) _id: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }

  @Subscription(() => IdentityVerificationEvent, {
    description: 'Every change of every identity verification of one user, present and future',
    subscribe: ({ args, context }) =>
      tenantEvents(context as Ctx, { service: 'verification', permission: 'identity:read' }, IDENTITY_RESOURCE, {
        userId: (args as { userId: string }).userId,
      }),
  })
  identityVerificationUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The user whose verifications to follow' }) _userId: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }

  @Subscription(() => IdentityVerificationEvent, {
    description:
      'Every change of every identity verification of the organization (a session token: of its user), present and future: a review queue’s feed, records entering MANUAL_REVIEW and leaving it',
    subscribe: ({ context }) => tenantEvents(context as Ctx, { service: 'verification', permission: 'identity:read' }, IDENTITY_RESOURCE),
  })
  identityVerificationUpdatedForOrganization(@Root() event: StreamedEvent) {
    return envelopeOf(event, fromSnapshot);
  }
}

/** Federation: other subgraphs reference an identity verification by id (tenant-checked). */
export function resolveIdentityReference(ref: { id: string }, ctx: Ctx) {
  return service(ctx, 'read').find(ref.id);
}

/** The user's identity verifications, as fields of `User`. */
@Resolver(() => UserType)
export class IdentityUserFields {
  @Directive(LIST_SIZE)
  @FieldResolver(() => IdentityVerificationConnection, { description: 'The user’s identity verifications, newest first' })
  identityVerifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new IdentityService(ctx.em, authorize(ctx, 'verification', 'identity:read')).list({ userId: user.id }, page);
  }

  @FieldResolver(() => IdentityVerificationType, {
    nullable: true,
    description: 'The user’s current identity verification: the newest one not replaced by a restart',
  })
  currentIdentityVerification(@Root() user: UserType, @Ctx() ctx: Ctx) {
    return new IdentityService(ctx.em, authorize(ctx, 'verification', 'identity:read')).current(user.id);
  }
}
