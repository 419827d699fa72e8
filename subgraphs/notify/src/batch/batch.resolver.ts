import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { envelopeOf } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { NotifyShared } from '../notify.shared.js';
import { loadersOf } from '../loaders.js';
import { NotificationTemplateType } from '../templates/template.type.js';
import { templateView } from '../templates/template.service.js';
import { BatchService, batchFromSnapshot } from './batch.service.js';
import {
  BatchChannelProgressType,
  NotificationBatchEvent,
  NotificationBatchType,
  SendNotificationBatchInput,
  SendNotificationBatchPayload,
} from './batch.type.js';
import { BATCH_RESOURCE } from './batch.events.js';
import { channelProgress, type BatchView } from './batch.store.js';

type Ctx = SubgraphContext<NotifyShared>;

function service(ctx: Ctx, permission: 'send' | 'notifications:read'): BatchService {
  return new BatchService(ctx.em, ctx.deps, authorize(ctx, 'notify', permission));
}

@Resolver(() => NotificationBatchType)
export class BatchResolver {
  @Mutation(() => SendNotificationBatchPayload, {
    description:
      'Sends one template to up to 10,000 recipients: every recipient is checked, then all are accepted at once (status PROCESSING) and delivered in chunks. With an Idempotency-Key header, a repeat of the same request returns the first batch again',
  })
  async sendNotificationBatch(
    @Arg('input', { description: 'The template, the channels and the recipients' }) input: SendNotificationBatchInput,
    @Ctx() ctx: Ctx,
  ) {
    return { notificationBatch: await service(ctx, 'send').send(input, ctx.idempotencyKey) };
  }

  @Query(() => NotificationBatchType, { nullable: true, description: 'One batch with its progress; null when there is none with this id' })
  notificationBatch(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'notifications:read').find(id);
  }

  @FieldResolver(() => NotificationTemplateType, { description: 'The template version every recipient is sent' })
  async template(@Root() batch: BatchView, @Ctx() ctx: Ctx) {
    const template = await loadersOf(ctx).template.load(batch.templateId);
    return template && templateView(template);
  }

  @FieldResolver(() => [BatchChannelProgressType], { description: 'Per channel: how many of its notifications are in each status now' })
  channelProgress(@Root() batch: BatchView, @Ctx() ctx: Ctx) {
    return channelProgress(ctx.deps.pool, authorize(ctx, 'notify', 'notifications:read'), batch.id);
  }

  @Subscription(() => NotificationBatchEvent, {
    description: 'The progress of one batch: its acceptance, each chunk of recipients processed, and its completion',
    subscribe: ({ args, context }) =>
      tenantEvents(context as Ctx, { service: 'notify', permission: 'notifications:read' }, BATCH_RESOURCE, {
        resourceId: (args as { id: string }).id,
      }),
  })
  notificationBatchUpdated(@Root() event: StreamedEvent, @Arg('id', () => ID, { description: 'The batch to follow' }) _id: string) {
    return envelopeOf(event, batchFromSnapshot);
  }
}
