import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { NotifyDeps } from '../deps.js';
import { BatchService, batchFromSnapshot } from './batch.service.js';
import { BatchChannelProgressType, NotificationBatchType, SendNotificationBatchInput } from './batch.type.js';
import { BATCH_RESOURCE } from '../notifications/batch.events.js';
import { channelProgress, type BatchView } from '../notifications/batch.store.js';

type Ctx = SubgraphContext<NotifyDeps>;

function service(ctx: Ctx, permission: 'send' | 'notifications:read'): BatchService {
  return new BatchService(ctx.em, ctx.deps, authorize(ctx, 'notify', permission));
}

@Resolver(() => NotificationBatchType)
export class BatchResolver {
  @Mutation(() => NotificationBatchType, {
    description: 'POST /v1/send/batch: up to 10,000 recipients accepted in one transaction (status processing), fanned out to jobs',
  })
  sendNotificationBatch(@Arg('input') input: SendNotificationBatchInput, @Ctx() ctx: Ctx) {
    return service(ctx, 'send').send(input, ctx.idempotencyKey);
  }

  @Query(() => NotificationBatchType, { description: 'GET /v1/send/batch/{id}: progress' })
  notificationBatch(@Arg('id', () => ID) id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'notifications:read').get(id);
  }

  @FieldResolver(() => [BatchChannelProgressType], { description: 'Per channel: how many notifications are in each status now' })
  channelProgress(@Root() batch: BatchView, @Ctx() ctx: Ctx) {
    return channelProgress(ctx.deps.pool, authorize(ctx, 'notify', 'notifications:read'), batch.id);
  }

  @Subscription(() => NotificationBatchType, {
    description: 'Batch progress: after each chunk of recipients is dispatched, and once completed',
    subscribe: ({ args, context }) => {
      const { id } = args as { id: string };
      return tenantEvents(context as Ctx, { service: 'notify', permission: 'notifications:read' }, BATCH_RESOURCE, { resourceId: id });
    },
  })
  notificationBatchProgress(@Root() event: StreamedEvent, @Arg('id', () => ID) _id: string): BatchView {
    return batchFromSnapshot(event.snapshot);
  }
}
