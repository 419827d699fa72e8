import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { envelopeOf, reviveDates } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { VerificationContext } from '../verification.shared.js';
import type { MobileMoneyAdapters } from './adapters/registry.js';
import { UserType } from '../user/user.type.js';
import type { NameMatchExplanation } from './mobile-money.decision.js';
import { MOBILE_MONEY_RESOURCE } from './mobile-money.events.js';
import {
  CreateMobileMoneyVerificationInput,
  MobileMoneyVerificationFilter,
  RetryMobileMoneyVerificationInput,
} from './mobile-money.inputs.js';
import { MobileMoneyService } from './mobile-money.service.js';
import {
  CreateMobileMoneyVerificationPayload,
  MobileMoneyNameMatchExplanationType,
  MobileMoneyVerificationConnection,
  MobileMoneyVerificationEvent,
  MobileMoneyVerificationType,
  RetryMobileMoneyVerificationPayload,
} from './mobile-money.type.js';

type Ctx = VerificationContext<{ mobileMoney: MobileMoneyAdapters }>;

export function mobileMoneyService(ctx: Ctx, access: 'read' | 'write'): MobileMoneyService {
  const tenant = authorize(ctx, 'verification', `mobile_money:${access}`);
  return new MobileMoneyService(ctx.em, tenant, {
    adapters: ctx.deps.mobileMoney,
    timeoutMs: ctx.deps.config.MOBILE_MONEY_TIMEOUT_MS,
    logger: ctx.logger,
  });
}

const fromSnapshot = (s: Record<string, unknown>) =>
  reviveDates<MobileMoneyVerificationType>(s, ['checkedAt', 'verifiedAt', 'createdAt', 'updatedAt']);

const subscribe =
  (filter: 'resourceId' | 'userId') =>
  ({ args, context }: { args: Record<string, string>; context: unknown }) =>
    tenantEvents(context as Ctx, { service: 'verification', permission: 'mobile_money:read' }, MOBILE_MONEY_RESOURCE, {
      [filter]: args[filter === 'resourceId' ? 'id' : 'userId'],
    });

@Resolver(() => MobileMoneyVerificationType)
export class MobileMoneyResolver {
  @Query(() => MobileMoneyVerificationType, {
    nullable: true,
    description: 'One mobile money account verification; null when there is none with this id',
  })
  mobileMoneyVerification(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    return mobileMoneyService(ctx, 'read').find(id);
  }

  @Directive(LIST_SIZE)
  @Query(() => MobileMoneyVerificationConnection, {
    description: 'The organization’s mobile money account verifications, newest first: of one user, with one outcome, of one operator',
  })
  mobileMoneyVerifications(
    @Arg('filter', () => MobileMoneyVerificationFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: MobileMoneyVerificationFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return mobileMoneyService(ctx, 'read').list(filter ?? {}, page);
  }

  @FieldResolver(() => UserType, { description: 'The user whose account it is' })
  user(@Root() v: MobileMoneyVerificationType): UserType {
    return { id: v.userId };
  }

  @FieldResolver(() => MobileMoneyNameMatchExplanationType, {
    nullable: true,
    description: 'Why the names matched or not (the screening engine’s comparison, part by part); null when not compared',
  })
  nameMatchExplanation(@Root() v: MobileMoneyVerificationType): MobileMoneyNameMatchExplanationType | null {
    const e = v.nameMatchExplanation as NameMatchExplanation | null | undefined;
    if (!e) return null;
    return { summary: e.summary, threshold: e.threshold, parts: e.parts.map((p) => ({ ...p, how: p.how.toUpperCase() })) };
  }

  @Mutation(() => CreateMobileMoneyVerificationPayload, {
    description:
      'Asks the operator whether an active account exists on the number and compares its holder’s name with expectedName; answers the outcome (VERIFIED, NAME_MISMATCH, NOT_FOUND, or PROVIDER_ERROR when the operator could not answer)',
  })
  async createMobileMoneyVerification(@Arg('input') input: CreateMobileMoneyVerificationInput, @Ctx() ctx: Ctx) {
    return { mobileMoneyVerification: await mobileMoneyService(ctx, 'write').verify(input) };
  }

  @Mutation(() => RetryMobileMoneyVerificationPayload, {
    description: 'Asks the operator again about a verification in PROVIDER_ERROR (otherwise a CONFLICT user error)',
  })
  async retryMobileMoneyVerification(@Arg('input') input: RetryMobileMoneyVerificationInput, @Ctx() ctx: Ctx) {
    return { mobileMoneyVerification: await mobileMoneyService(ctx, 'write').retry(input.id) };
  }

  @Subscription(() => MobileMoneyVerificationEvent, {
    description: 'Every change of one mobile money verification',
    subscribe: subscribe('resourceId'),
  })
  mobileMoneyVerificationUpdated(
    @Root() event: StreamedEvent,
    @Arg('id', () => ID, { description: 'The verification to follow' }) _id: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }

  @Subscription(() => MobileMoneyVerificationEvent, {
    description: 'Every mobile money verification of one user and its changes, present and future',
    subscribe: subscribe('userId'),
  })
  mobileMoneyVerificationUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The user whose verifications to follow' }) _userId: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }
}

/** Federation: other subgraphs reference a mobile money verification by id (tenant-checked). */
export function resolveMobileMoneyReference(ref: { id: string }, ctx: Ctx) {
  return mobileMoneyService(ctx, 'read').find(ref.id);
}

/** The user's mobile money verifications, as fields of `User`. */
@Resolver(() => UserType)
export class MobileMoneyUserFields {
  @Directive(LIST_SIZE)
  @FieldResolver(() => MobileMoneyVerificationConnection, { description: 'The user’s mobile money account verifications, newest first' })
  mobileMoneyVerifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return mobileMoneyService(ctx, 'read').list({ userId: user.id }, page);
  }
}
