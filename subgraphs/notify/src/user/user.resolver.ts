import { Args, Ctx, Directive, FieldResolver, Resolver, Root } from 'type-graphql';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { UserType } from './user.type.js';
import type { NotifyDeps } from '../deps.js';
import { RecipientResolver } from '../recipients/recipient.resolver.js';
import { NotificationRecipientType } from '../recipients/recipient.type.js';
import { NotificationResolver } from '../send/notification.resolver.js';
import { NotificationConnection } from '../send/notification.type.js';

type Ctx = SubgraphContext<NotifyDeps>;

/** What notify holds about a user: the recipient profile whose id is their user id, and what was sent to it. */
@Resolver(() => UserType)
export class NotifyUserResolver {
  @FieldResolver(() => NotificationRecipientType, {
    nullable: true,
    description: 'The user’s recipient profile (its id is the user id); null when none was saved',
  })
  notificationRecipient(@Root() user: UserType, @Ctx() ctx: Ctx) {
    return new RecipientResolver().notificationRecipient(user.id, ctx);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => NotificationConnection, { description: 'The notifications sent to the user’s recipient profile, newest first' })
  notifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new NotificationResolver().notifications({ recipientId: user.id }, page, ctx);
  }
}
