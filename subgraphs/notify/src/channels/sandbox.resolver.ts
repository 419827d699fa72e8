import { Arg, Args, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { PageArgs } from '../../../../platform/graphql/pagination.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import { isUuid } from '../../../../platform/ids.js';
import { badInput } from '../../../../platform/errors.js';
import type { NotifyDeps } from '../deps.js';
import { isChannel } from './channel.js';
import { SandboxMessagePage } from './sandbox.type.js';

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
    const where = ['organization_id = $1', 'environment = $2'];
    const values: unknown[] = [tenant.organizationId, tenant.environment];
    if (notificationId) where.push(`notification_id = $${values.push(notificationId)}`);
    if (channel) where.push(`channel = $${values.push(channel)}`);
    if (to) where.push(`recipient = $${values.push(to)}`);
    const filtered = `from notify.sandbox_messages where ${where.join(' and ')}`;
    const { pool } = ctx.deps;
    const total = Number((await pool.query(`select count(*) as n ${filtered}`, values)).rows[0].n);
    const { rows } = await pool.query(
      `select id::text, notification_id as "notificationId", channel, recipient as "to", subject, html, title, body, created_at as "createdAt"
         ${filtered} order by id desc limit $${values.length + 1} offset $${values.length + 2}`,
      [...values, limit, (page - 1) * limit],
    );
    return { data: rows, total, page, limit };
  }
}
