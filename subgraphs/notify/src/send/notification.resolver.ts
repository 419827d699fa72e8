import { Arg, Args, Ctx, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { PageArgs } from '../../../../platform/graphql/pagination.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { NotifyDeps } from '../deps.js';
import { NotificationService, viewFromSnapshot } from './notification.service.js';
import { NotificationPage, NotificationStatusEnum, NotificationType, SendNotificationInput } from './notification.type.js';
import { NOTIFICATION_RESOURCE } from '../notifications/notification.events.js';

type Ctx = SubgraphContext<NotifyDeps>;

function service(ctx: Ctx, permission: 'send' | 'notifications:read'): NotificationService {
  return new NotificationService(ctx.em, ctx.deps, authorize(ctx, 'notify', permission));
}

@Resolver(() => NotificationType)
export class NotificationResolver {
  @Mutation(() => NotificationType, {
    description:
      'POST /v1/send: accepted at once (status dispatched), delivered by jobs. Idempotency-Key header: a repeat returns the first response',
  })
  sendNotification(@Arg('input') input: SendNotificationInput, @Ctx() ctx: Ctx) {
    return service(ctx, 'send').send(input, ctx.idempotencyKey);
  }

  @Query(() => NotificationType, { description: 'GET /v1/notifications/{id}' })
  notification(@Arg('id', () => ID) id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'notifications:read').get(id);
  }

  @Query(() => NotificationPage, { description: "Newest first; a batch's in recipient order" })
  notifications(
    @Args() { page, limit }: PageArgs,
    @Arg('batchId', () => ID, { nullable: true }) batchId: string | null,
    @Arg('status', () => NotificationStatusEnum, { nullable: true }) status: string | null,
    @Arg('to', () => String, { nullable: true }) to: string | null,
    @Ctx() ctx: Ctx,
  ) {
    return service(ctx, 'notifications:read').list({ batchId, status, to }, page, limit);
  }

  @Subscription(() => NotificationType, {
    description: 'Every change of the notification: each channel moving (queued, sent, delivered, opened, failed…)',
    subscribe: ({ args, context }) => {
      const { id } = args as { id: string };
      const access = { service: 'notify', permission: 'notifications:read' } as const;
      return tenantEvents(context as Ctx, access, NOTIFICATION_RESOURCE, { resourceId: id });
    },
  })
  notificationUpdated(@Root() event: StreamedEvent, @Arg('id', () => ID) _id: string): NotificationType {
    return viewFromSnapshot(event.snapshot) as unknown as NotificationType;
  }
}
