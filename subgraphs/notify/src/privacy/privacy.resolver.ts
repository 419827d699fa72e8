import { Ctx, FieldResolver, Resolver } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import { JSON as JSONScalar } from '../../../../platform/graphql/scalars.js';
import { UserDataExportEntity } from '../../../../platform/graphql/user-data-export.js';
import { exported } from '../../../../platform/privacy/personal-data.js';
import type { NotifyShared } from '../notify.shared.js';
import { RecipientService } from '../recipients/recipient.service.js';
import { notificationsSentTo } from '../notifications/notification.store.js';
import { notificationSnapshot } from '../notifications/notification.events.js';
import { sandboxMessagesOf } from '../channels/sandbox.store.js';

type Ctx = SubgraphContext<NotifyShared>;

/** This subgraph's part of the export (platform/graphql/user-data-export.ts). */
export const UserDataExportType = UserDataExportEntity();
export type UserDataExportType = InstanceType<typeof UserDataExportType>;

/** Exports are a verification key's `privacy:read` (the privacy area covers every service's data of a user). */
const privacyTenant = (ctx: Ctx) => authorize(ctx, 'verification', 'privacy:read');

@Resolver(() => UserDataExportType)
export class NotifyDataExportResolver {
  @FieldResolver(() => JSONScalar, {
    description:
      'What the notify service holds: the recipient profile whose id is the user id, the notifications sent to it or to its addresses (with the data they were rendered from), and the messages the sandbox kept',
  })
  async notify(@Root() e: UserDataExportType, @Ctx() ctx: Ctx) {
    const tenant = privacyTenant(ctx);
    const profile = await new RecipientService(ctx.em, tenant).find(e.id);
    const addresses = [profile?.email, profile?.phone].filter((a): a is string => Boolean(a));
    const notifications = await notificationsSentTo(ctx.deps.pool, tenant, { recipientId: e.id, addresses });
    const messages = await sandboxMessagesOf(
      ctx.deps.pool,
      notifications.map((n) => n.id),
    );
    return {
      recipient: profile ? exported(profile) : null,
      notifications: notifications.map((n) => ({ ...notificationSnapshot(n), data: n.data })),
      sandboxMessages: JSON.parse(JSON.stringify(messages)) as unknown,
    };
  }
}

/** Federation: the export entity, for the caller's tenant. */
export function resolveNotifyDataExportReference(ref: { id: string }, ctx: Ctx) {
  privacyTenant(ctx);
  return { id: ref.id };
}
