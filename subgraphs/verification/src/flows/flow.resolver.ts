import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { envelopeOf, reviveDates } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { VerificationContext } from '../verification.shared.js';
import { UserType } from '../user/user.type.js';
import type { FlowStatus } from './flow.lifecycle.js';
import { FLOW_RESOURCE } from './flow.events.js';
import { FlowService, type FlowDeps } from './flow.service.js';
import type { FlowStep, FlowStepState } from './flow.steps.js';
import {
  CreateVerificationFlowInput,
  CreateVerificationFlowPayload,
  FlowStateEnum,
  FlowStepStateType,
  VerificationFlowConnection,
  VerificationFlowEvent,
  VerificationFlowFilter,
  VerificationFlowType,
} from './flow.type.js';

type Ctx = VerificationContext<{ flows: FlowDeps }>;

export const flowService = (ctx: Ctx, access: 'read' | 'write') =>
  new FlowService(ctx.em, authorize(ctx, 'verification', `flow:${access}`), ctx.deps.flows);

/** A flow's fields read with the tenant its query or mutation was authorized for (a key that creates a flow need not read flows). */
const fieldsOf = (ctx: Ctx) => new FlowService(ctx.em, ctx.tenant!, ctx.deps.flows);

/** `status` and `steps` read the same checks: once per flow object of a request. */
const progress = new WeakMap<object, Promise<FlowStepState[]>>();
function stepsOf(flow: VerificationFlowType, ctx: Ctx): Promise<FlowStepState[]> {
  let read = progress.get(flow);
  if (!read) progress.set(flow, (read = fieldsOf(ctx).steps(flow as VerificationFlowType & { steps: FlowStep[] })));
  return read;
}

/** Events of one flow (`id`) or of one user's flows (`userId`). */
const subscribe =
  (filter: 'resourceId' | 'userId') =>
  ({ args, context }: { args: Record<string, string>; context: unknown }) =>
    tenantEvents(context as Ctx, { service: 'verification', permission: 'flow:read' }, FLOW_RESOURCE, {
      [filter]: args[filter === 'resourceId' ? 'id' : 'userId'],
    });

const fromSnapshot = (s: Record<string, unknown>) =>
  reviveDates<VerificationFlowType>(s, ['expiresAt', 'openedAt', 'createdAt', 'updatedAt']);

@Resolver(() => VerificationFlowType)
export class FlowResolver {
  @Query(() => VerificationFlowType, { nullable: true, description: 'One verification flow; null when there is none with this id' })
  verificationFlow(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    return flowService(ctx, 'read').find(id);
  }

  @Directive(LIST_SIZE)
  @Query(() => VerificationFlowConnection, { description: 'The organization’s verification flows, newest first' })
  verificationFlows(
    @Arg('filter', () => VerificationFlowFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: VerificationFlowFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return flowService(ctx, 'read').list(filter ?? {}, page);
  }

  @FieldResolver(() => [FlowStepStateType], { description: 'The steps in the order the page takes them, and where each stands' })
  steps(@Root() flow: VerificationFlowType, @Ctx() ctx: Ctx) {
    return stepsOf(flow, ctx);
  }

  @FieldResolver(() => FlowStateEnum, { description: 'Where it stands: read from its link and its steps’ checks' })
  async status(@Root() flow: VerificationFlowType, @Ctx() ctx: Ctx) {
    return fieldsOf(ctx).state(flow as VerificationFlowType & { steps: FlowStep[]; status: FlowStatus }, await stepsOf(flow, ctx));
  }

  @Mutation(() => CreateVerificationFlowPayload, {
    description:
      'Creates a hosted verification flow for one user: a one-use link to a page (or the web component) that takes the person through the steps with a session token of their own',
  })
  async createVerificationFlow(@Arg('input') input: CreateVerificationFlowInput, @Ctx() ctx: Ctx) {
    const { flow, url } = await flowService(ctx, 'write').create(ctx.principal!, input);
    return { verificationFlow: flow, url };
  }

  @Subscription(() => VerificationFlowEvent, {
    description: 'Every change of one verification flow (created, opened); its steps’ checks have subscriptions of their own',
    subscribe: subscribe('resourceId'),
  })
  verificationFlowUpdated(@Root() event: StreamedEvent, @Arg('id', () => ID, { description: 'The flow to follow' }) _id: string) {
    return envelopeOf(event, fromSnapshot);
  }

  @Subscription(() => VerificationFlowEvent, {
    description: 'Every change of every verification flow of one user, present and future',
    subscribe: subscribe('userId'),
  })
  verificationFlowUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The user whose flows to follow' }) _userId: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }
}

/** The user's flows, as a field of `User`. */
@Resolver(() => UserType)
export class FlowUserFields {
  @Directive(LIST_SIZE)
  @FieldResolver(() => VerificationFlowConnection, { description: 'The user’s hosted verification flows, newest first' })
  verificationFlows(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return flowService(ctx, 'read').list({ userId: user.id }, page);
  }
}
