import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { UserType } from '../user/user.type.js';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { envelopeOf } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import { badInput } from '../../../../platform/errors.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { NotifyShared } from '../notify.shared.js';
import { loadersOf } from '../loaders.js';
import { NotificationBatchType } from '../batch/batch.type.js';
import { NotificationRecipientType } from '../recipients/recipient.type.js';
import { NotificationTemplateType } from '../templates/template.type.js';
import { templateView } from '../templates/template.service.js';
import { NotificationService, viewFromSnapshot } from './notification.service.js';
import {
  NotificationConnection,
  NotificationEvent,
  NotificationFilter,
  NotificationType,
  SendNotificationInput,
  SendNotificationPayload,
} from './notification.type.js';
import { NOTIFICATION_RESOURCE } from './notification.events.js';
import type { NotificationView } from './notification.store.js';

type Ctx = SubgraphContext<NotifyShared>;

function service(ctx: Ctx, permission: 'send' | 'notifications:read'): NotificationService {
  return new NotificationService(ctx.em, ctx.deps, authorize(ctx, 'notify', permission));
}

const READ = { service: 'notify', permission: 'notifications:read' } as const;

@Resolver(() => NotificationType)
export class NotificationResolver {
  @Mutation(() => SendNotificationPayload, {
    description:
      'Sends one notification: accepted at once (status DISPATCHED), then delivered channel by channel. With an Idempotency-Key header, a repeat of the same request returns the first notification again',
  })
  async sendNotification(
    @Arg('input', { description: 'What to send, to whom, on which channels' }) input: SendNotificationInput,
    @Ctx() ctx: Ctx,
  ) {
    return { notification: await service(ctx, 'send').send(input, ctx.idempotencyKey) };
  }

  @Query(() => NotificationType, {
    nullable: true,
    description: 'One notification with the status of each channel; null when there is none with this id',
  })
  notification(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'notifications:read').find(id);
  }

  @Directive(LIST_SIZE)
  @Query(() => NotificationConnection, {
    description: 'The organization’s notifications, newest first (those of one batch in recipient order)',
  })
  notifications(
    @Arg('filter', () => NotificationFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: NotificationFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return service(ctx, 'notifications:read').list(filter ?? {}, page);
  }

  @FieldResolver(() => NotificationTemplateType, { description: 'The template version it was rendered from' })
  async template(@Root() n: NotificationView, @Ctx() ctx: Ctx) {
    const template = await loadersOf(ctx).template.load(n.templateId);
    return template && templateView(template);
  }

  @FieldResolver(() => NotificationBatchType, { nullable: true, description: 'The batch it was sent in; null for a single send' })
  batch(@Root() n: NotificationView, @Ctx() ctx: Ctx) {
    return n.batchId ? loadersOf(ctx).batch.load(n.batchId) : null;
  }

  @FieldResolver(() => NotificationRecipientType, {
    nullable: true,
    description:
      'The recipient profile it was sent to, as it is now; null when it was sent straight to an address or the profile was deleted since',
  })
  recipient(@Root() n: NotificationView, @Ctx() ctx: Ctx) {
    return n.recipientId ? loadersOf(ctx).recipient.load(n.recipientId) : null;
  }

  @Subscription(() => NotificationEvent, {
    description: 'Every change of one notification: acceptance, then each channel moving (sent, delivered, opened, failed…)',
    subscribe: ({ args, context }) =>
      tenantEvents(context as Ctx, READ, NOTIFICATION_RESOURCE, { resourceId: (args as { id: string }).id }),
  })
  notificationUpdated(@Root() event: StreamedEvent, @Arg('id', () => ID, { description: 'The notification to follow' }) _id: string) {
    return envelopeOf(event, viewFromSnapshot);
  }

  @Subscription(() => NotificationEvent, {
    description:
      'Every change of every notification sent to one recipient profile, present and future. A recipient profile’s id is your user id, so this follows one user’s notifications (those sent straight to an address are not included)',
    subscribe: ({ args, context }) => {
      const { userId } = args as { userId: string };
      if (!userId) throw badInput('userId must not be empty');
      return tenantEvents(context as Ctx, READ, NOTIFICATION_RESOURCE, { userId });
    },
  })
  notificationUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The recipient profile’s id: your id of the user whose notifications to follow' }) _userId: string,
  ) {
    return envelopeOf(event, viewFromSnapshot);
  }
}

/** What was sent to the user's recipient profile, as a field of `User`. */
@Resolver(() => UserType)
export class NotificationUserFields {
  @Directive(LIST_SIZE)
  @FieldResolver(() => NotificationConnection, { description: 'The notifications sent to the user’s recipient profile, newest first' })
  notifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new NotificationResolver().notifications({ recipientId: user.id }, page, ctx);
  }
}
