import { Arg, Args, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { PageArgs } from '../../../../platform/graphql/pagination.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import { isUuid } from '../../../../platform/ids.js';
import { badInput } from '../../../../platform/errors.js';
import type { NotifyDeps } from '../deps.js';
import { isChannel } from './channel.js';
import { SandboxMessagePage } from './sandbox.type.js';
import { listSandboxMessages } from './sandbox.store.js';

type Ctx = SubgraphContext<NotifyDeps>;

@Resolver()
export class SandboxResolver {
  @Query(() => SandboxMessagePage, {
    description: 'What the sandbox providers "sent" for your keys (test keys, and live channels without a provider), newest first',
  })
  async sandboxMessages(
    @Args() { page, limit }: PageArgs,
    @Arg('notificationId', () => ID, { nullable: true }) notificationId: string | null,
    @Arg('channel', () => String, { nullable: true }) channel: string | null,
    @Arg('to', () => String, { nullable: true }) to: string | null,
    @Ctx() ctx: Ctx,
  ): Promise<SandboxMessagePage> {
    const tenant = authorize(ctx, 'notify', 'notifications:read');
    const errors = [];
    if (notificationId && !isUuid(notificationId)) errors.push('notificationId must be a notification id');
    if (channel && !isChannel(channel)) errors.push('channel must be one of: email, sms, push');
    if (errors.length) throw badInput(errors);
    return { ...(await listSandboxMessages(ctx.deps.pool, tenant, { notificationId, channel, to }, page, limit)), page, limit };
  }
}
