import { Arg, Args, Ctx, Directive, FieldResolver, Mutation, Query, Resolver } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { UserType } from '../user/user.type.js';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { NotifyShared } from '../notify.shared.js';
import { RecipientService } from './recipient.service.js';
import {
  DeleteNotificationRecipientInput,
  DeleteNotificationRecipientPayload,
  NotificationRecipientConnection,
  NotificationRecipientType,
  UpsertNotificationRecipientInput,
  UpsertNotificationRecipientPayload,
} from './recipient.type.js';

type Ctx = SubgraphContext<NotifyShared>;

/** Profiles are written by senders (`send`) and read with `notifications:read`. */
function service(ctx: Ctx, permission: 'send' | 'notifications:read'): RecipientService {
  return new RecipientService(ctx.em, authorize(ctx, 'notify', permission));
}

@Resolver(() => NotificationRecipientType)
export class RecipientResolver {
  @Mutation(() => UpsertNotificationRecipientPayload, {
    description: 'Creates a recipient profile, or changes the fields given (null clears one)',
  })
  async upsertNotificationRecipient(
    @Arg('input', { description: 'The profile’s id and the fields to set' }) input: UpsertNotificationRecipientInput,
    @Ctx() ctx: Ctx,
  ) {
    const { id, ...fields } = input;
    return { notificationRecipient: await service(ctx, 'send').upsert(id, fields) };
  }

  @Query(() => NotificationRecipientType, { nullable: true, description: 'One recipient profile; null when there is none with this id' })
  notificationRecipient(@Arg('id', { description: 'Your id of the user' }) id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'notifications:read').find(id);
  }

  @Directive(LIST_SIZE)
  @Query(() => NotificationRecipientConnection, { description: 'The organization’s recipient profiles, newest first' })
  notificationRecipients(@Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return service(ctx, 'notifications:read').list(page);
  }

  @Mutation(() => DeleteNotificationRecipientPayload, {
    description: 'Deletes a recipient profile; notifications sent to it keep their addresses',
  })
  async deleteNotificationRecipient(
    @Arg('input', { description: 'The profile to delete' }) input: DeleteNotificationRecipientInput,
    @Ctx() ctx: Ctx,
  ) {
    await service(ctx, 'send').delete(input.id);
    return { deletedNotificationRecipientId: input.id };
  }
}

/** The user's recipient profile (its id is their user id), as a field of `User`. */
@Resolver(() => UserType)
export class RecipientUserFields {
  @FieldResolver(() => NotificationRecipientType, {
    nullable: true,
    description: 'The user’s recipient profile (its id is the user id); null when none was saved',
  })
  notificationRecipient(@Root() user: UserType, @Ctx() ctx: Ctx) {
    return new RecipientResolver().notificationRecipient(user.id, ctx);
  }
}
