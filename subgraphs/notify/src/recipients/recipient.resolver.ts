import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { PageArgs } from '../../../../platform/graphql/pagination.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { NotifyDeps } from '../deps.js';
import { RecipientService } from './recipient.service.js';
import {
  DeletedNotificationRecipient,
  NotificationRecipientInput,
  NotificationRecipientPage,
  NotificationRecipientType,
} from './recipient.type.js';

type Ctx = SubgraphContext<NotifyDeps>;

/** Profiles are written by senders (`send`) and read with `notifications:read`. */
function service(ctx: Ctx, permission: 'send' | 'notifications:read'): RecipientService {
  return new RecipientService(ctx.em, authorize(ctx, 'notify', permission));
}

@Resolver(() => NotificationRecipientType)
export class RecipientResolver {
  @Mutation(() => NotificationRecipientType, { description: 'PUT /v1/recipients/{id}: creates the profile or updates the fields given' })
  upsertNotificationRecipient(@Arg('id') id: string, @Arg('input') input: NotificationRecipientInput, @Ctx() ctx: Ctx) {
    return service(ctx, 'send').upsert(id, input);
  }

  @Query(() => NotificationRecipientType)
  notificationRecipient(@Arg('id') id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'notifications:read').get(id);
  }

  @Query(() => NotificationRecipientPage, { description: 'Recipient profiles by id' })
  notificationRecipients(@Args() { page, limit }: PageArgs, @Ctx() ctx: Ctx) {
    return service(ctx, 'notifications:read').list(page, limit);
  }

  @Mutation(() => DeletedNotificationRecipient, { description: 'Deletes the profile (past notifications keep their addresses)' })
  async deleteNotificationRecipient(@Arg('id') id: string, @Ctx() ctx: Ctx): Promise<DeletedNotificationRecipient> {
    await service(ctx, 'send').delete(id);
    return { id, deleted: true };
  }
}
