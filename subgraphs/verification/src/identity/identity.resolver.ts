import { Arg, Args, Ctx, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { PageArgs } from '../../../../platform/graphql/pagination.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import { invalid } from '../../../../platform/errors.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { VerificationDeps } from '../deps.js';
import { IdentityService } from './identity.service.js';
import { CreateIdentityVerificationInput, ReviewIdentityVerificationInput } from './identity.inputs.js';
import { CreateIdentityVerificationPayload, IdentityVerificationPage, IdentityVerificationType } from './identity.type.js';
import { IDENTITY_RESOURCE } from './identity.events.js';

type Ctx = SubgraphContext<VerificationDeps>;

function service(ctx: Ctx, access: 'read' | 'write'): IdentityService {
  return new IdentityService(ctx.em, authorize(ctx, 'verification', `identity:${access}`));
}

/** Dates travel as ISO strings inside events; the GraphQL type wants Date objects. */
function fromSnapshot(s: Record<string, unknown>): IdentityVerificationType {
  const dates = ['verifiedAt', 'reviewedAt', 'invalidatedAt', 'createdAt', 'updatedAt'];
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, dates.includes(k) && typeof v === 'string' ? new Date(v) : v])) as never;
}

@Resolver(() => IdentityVerificationType)
export class IdentityResolver {
  @Query(() => IdentityVerificationType, { description: 'GET /verifications/identity/{id}' })
  identityVerification(@Arg('id', () => ID) id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'read').get(id);
  }

  @Query(() => IdentityVerificationPage, { description: 'GET /verifications/identity/user/{userId}, newest first' })
  identityVerificationsByUser(@Arg('userId') userId: string, @Args() { page, limit }: PageArgs, @Ctx() ctx: Ctx) {
    return service(ctx, 'read').listByUser(userId, page, limit);
  }

  @Mutation(() => CreateIdentityVerificationPayload, { description: 'POST /verifications/identity' })
  createIdentityVerification(@Arg('input') input: CreateIdentityVerificationInput, @Ctx() ctx: Ctx) {
    return service(ctx, 'write').create(input.userId, input.tier ?? 'BASIC');
  }

  @Mutation(() => IdentityVerificationType, { description: 'Only from MANUAL_REVIEW or PENDING; otherwise CONFLICT' })
  reviewIdentityVerification(@Arg('id', () => ID) id: string, @Arg('input') input: ReviewIdentityVerificationInput, @Ctx() ctx: Ctx) {
    return service(ctx, 'write').review(id, input);
  }

  @Mutation(() => IdentityVerificationType, { description: 'Invalidates the verification and returns the new PENDING one' })
  restartIdentityVerification(@Arg('id', () => ID) id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'write').restart(id);
  }

  @Subscription(() => IdentityVerificationType, {
    description: 'Every status change of one verification (id) or of all verifications of a user (userId)',
    subscribe: ({ args, context }) => {
      const { id, userId } = args as { id?: string; userId?: string };
      if (!id && !userId) throw invalid('Give id or userId');
      return tenantEvents(context as Ctx, { service: 'verification', permission: 'identity:read' }, IDENTITY_RESOURCE, {
        resourceId: id,
        userId,
      });
    },
  })
  identityVerificationUpdated(
    @Root() event: StreamedEvent,
    @Arg('id', () => ID, { nullable: true }) _id?: string,
    @Arg('userId', { nullable: true }) _userId?: string,
  ): IdentityVerificationType {
    return fromSnapshot(event.snapshot);
  }
}

/** Federation: other subgraphs reference an identity verification by id (tenant-checked). */
export function resolveIdentityReference(ref: { id: string }, ctx: Ctx) {
  return service(ctx, 'read').get(ref.id);
}
