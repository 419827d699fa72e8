import { Arg, Args, Ctx, Directive, FieldResolver, Query, Resolver } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import { isUuid } from '../../../../platform/ids.js';
import { badInput } from '../../../../platform/errors.js';
import type { NotifyShared } from '../notify.shared.js';
import { loadersOf } from '../loaders.js';
import { NotificationType } from '../notifications/notification.type.js';
import { SandboxMessageConnection, SandboxMessageFilter, SandboxMessageType } from './sandbox.type.js';
import { listSandboxMessages, type SandboxMessageRow } from './sandbox.store.js';

type Ctx = SubgraphContext<NotifyShared>;

@Resolver(() => SandboxMessageType)
export class SandboxResolver {
  @Directive(LIST_SIZE)
  @Query(() => SandboxMessageConnection, {
    description: 'What the sandbox providers "sent" for your keys (test keys, and live channels without a provider), newest first',
  })
  sandboxMessages(
    @Arg('filter', () => SandboxMessageFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: SandboxMessageFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    const tenant = authorize(ctx, 'notify', 'notifications:read');
    const { notificationId, channel, to } = filter ?? {};
    if (notificationId && !isUuid(notificationId)) throw badInput('notificationId must be a notification id');
    return listSandboxMessages(ctx.deps.pool, tenant, { notificationId, channel, to }, page);
  }

  @FieldResolver(() => NotificationType, { description: 'The notification it belongs to' })
  notification(@Root() message: SandboxMessageRow, @Ctx() ctx: Ctx) {
    return loadersOf(ctx).notification.load(message.notificationId);
  }
}
