import type { Sql } from '../../../../platform/db/transaction.js';
import { channelOrderSql, type Channel, type PushTarget } from '../channels/channel.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { Connection, ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { isUuid } from '../../../../platform/ids.js';
import { keysetConnection } from '../../../../platform/graphql/keyset.js';
import { CHANNEL_LIFECYCLE, notificationStatus, type DeliveryStatus, type NotificationStatus } from './notification.lifecycle.js';
import { pastRetention, RETENTION_CHUNK } from '../../../../platform/privacy/retention.js';
import { currentTraceparent } from '../../../../platform/tracing.js';

export interface ChannelView {
  channel: Channel;
  status: DeliveryStatus;
  provider: string;
  /** From acceptance to the provider taking the message. */
  latencyMs: number | null;
  openedAt: Date | null;
  reason: string | null;
  attempts: number;
  sentAt: Date | null;
  deliveredAt: Date | null;
  failedAt: Date | null;
  nextAttemptAt: Date | null;
  updatedAt: Date;
}

export interface NotificationView {
  id: string;
  to: string;
  recipientId: string | null;
  template: string;
  templateVersion: number;
  templateId: string;
  status: NotificationStatus;
  batchId: string | null;
  channels: ChannelView[];
  createdAt: Date;
  updatedAt: Date;
  organizationId: string;
  environment: string;
}

export interface NewDelivery {
  id: string;
  channel: Channel;
  status: DeliveryStatus;
  provider: string;
  address: string | null;
  pushTargets: PushTarget[] | null;
  trackingToken: string | null;
  reason: string | null;
}

export interface NewNotification {
  id: string;
  to: string;
  recipientId: string | null;
  data: Record<string, unknown>;
  batchSeq: number | null;
  deliveries: NewDelivery[];
}

const CHANNEL_ORDER = channelOrderSql('d.channel');

const VIEW_SQL = `
  select n.id, n.recipient, n.recipient_id, n.template_name, n.template_version, n.template_id, n.status, n.batch_id,
         n.created_at, n.updated_at, n.organization_id, n.environment,
         json_agg(json_build_object(
           'channel', d.channel, 'status', d.status, 'provider', d.provider, 'latencyMs', d.latency_ms,
           'openedAt', d.opened_at, 'reason', d.reason, 'attempts', d.attempts, 'sentAt', d.sent_at,
           'deliveredAt', d.delivered_at, 'failedAt', d.failed_at, 'nextAttemptAt', d.next_attempt_at, 'updatedAt', d.updated_at)
           order by ${CHANNEL_ORDER}) as channels
    from notify.notifications n join notify.deliveries d on d.notification_id = n.id`;

const date = (v: unknown): Date | null => (v == null ? null : new Date(v as string));

function toView(r: any): NotificationView {
  return {
    id: r.id,
    to: r.recipient,
    recipientId: r.recipient_id,
    template: r.template_name,
    templateVersion: r.template_version,
    templateId: r.template_id,
    status: r.status,
    batchId: r.batch_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    organizationId: r.organization_id,
    environment: r.environment,
    channels: (r.channels as any[]).map((c) => ({
      ...c,
      openedAt: date(c.openedAt),
      sentAt: date(c.sentAt),
      deliveredAt: date(c.deliveredAt),
      failedAt: date(c.failedAt),
      nextAttemptAt: date(c.nextAttemptAt),
      updatedAt: new Date(c.updatedAt),
    })),
  };
}

export async function loadViews(db: Sql, ids: readonly string[]): Promise<NotificationView[]> {
  if (!ids.length) return [];
  const { rows } = await db.query(`${VIEW_SQL} where n.id = any($1::uuid[]) group by n.id order by n.created_at, n.id`, [ids]);
  return rows.map(toView);
}

export async function loadView(db: Sql, tenant: Tenant, id: string): Promise<NotificationView | null> {
  const { rows } = await db.query(`${VIEW_SQL} where n.id = $1 and n.organization_id = $2 and n.environment = $3 group by n.id`, [
    id,
    tenant.organizationId,
    tenant.environment,
  ]);
  return rows[0] ? toView(rows[0]) : null;
}

export interface ListFilter {
  batchId?: string | null;
  status?: NotificationStatus | null;
  to?: string | null;
  recipientId?: string | null;
}

/**
 * The tenant's notifications, newest first (creation time, then id); those of one batch in
 * recipient order.
 */
export function listViews(db: Sql, tenant: Tenant, filter: ListFilter, args: ConnectionArgs): Promise<Connection<NotificationView>> {
  const where = ['n.organization_id = $1', 'n.environment = $2'];
  const values: unknown[] = [tenant.organizationId, tenant.environment];
  if (filter.batchId) where.push(`n.batch_id = $${values.push(filter.batchId)}`);
  if (filter.status) where.push(`n.status = $${values.push(filter.status)}`);
  if (filter.to) where.push(`n.recipient = $${values.push(filter.to)}`);
  if (filter.recipientId) where.push(`n.recipient_id = $${values.push(filter.recipientId)}`);
  const inBatch = Boolean(filter.batchId);
  return keysetConnection<{ id: string; created_at: Date }, NotificationView>(
    db,
    {
      from: 'notify.notifications n',
      where,
      values,
      key: inBatch ? ['n.batch_seq'] : ['n.created_at', 'n.id'],
      descending: !inBatch,
      keyOf: (id) => `select o.${inBatch ? 'batch_seq' : 'created_at, o.id'} from notify.notifications o where o.id = ${id}::uuid`,
      isId: isUuid,
      select: 'n.id, n.created_at',
    },
    args,
    async (rows) => {
      const views = new Map(
        (
          await loadViews(
            db,
            rows.map((r) => r.id),
          )
        ).map((v) => [v.id, v]),
      );
      return rows.map((r) => views.get(r.id)!);
    },
  );
}

/** One multi-row INSERT per table (unnest) in one statement, whatever the count: 1 for a send, 10,000 for a batch. */
export async function insertNotifications(
  db: Sql,
  tenant: Tenant,
  template: { id: string; name: string; version: number },
  items: readonly NewNotification[],
  batchId: string | null,
): Promise<void> {
  const col = <T>(pick: (n: NewNotification) => T) => items.map(pick);
  const deliveries = items.flatMap((n) => n.deliveries.map((d) => ({ ...d, notificationId: n.id })));
  const dcol = <T>(pick: (d: (typeof deliveries)[number]) => T) => deliveries.map(pick);
  await db.query(
    `with notifications as (
       insert into notify.notifications (id, organization_id, environment, template_id, template_name, template_version, recipient, recipient_id, data, status, batch_id, batch_seq, processed_at, trace_parent)
       select t.id, $1, $2, $3, $4, $5, t.recipient, t.recipient_id, t.data, t.status, $6, t.seq, case when t.processed then now() end, $14
         from unnest($7::uuid[], $8::text[], $9::text[], $10::jsonb[], $11::int[], $12::boolean[], $13::text[])
           as t(id, recipient, recipient_id, data, seq, processed, status))
     insert into notify.deliveries (id, notification_id, organization_id, environment, channel, status, provider, address, push_targets, tracking_token, reason, failed_at)
     select t.id, t.notification_id, $1, $2, t.channel, t.status, t.provider, t.address, t.push_targets, t.tracking_token, t.reason,
            case when t.status = 'undeliverable' then now() end
       from unnest($15::uuid[], $16::uuid[], $17::text[], $18::text[], $19::text[], $20::text[], $21::jsonb[], $22::uuid[], $23::text[])
         as t(id, notification_id, channel, status, provider, address, push_targets, tracking_token, reason)`,
    [
      tenant.organizationId,
      tenant.environment,
      template.id,
      template.name,
      template.version,
      batchId,
      col((n) => n.id),
      col((n) => n.to),
      col((n) => n.recipientId),
      col((n) => JSON.stringify(n.data)),
      col((n) => n.batchSeq),
      col((n) => n.deliveries.every((d) => d.status !== 'queued')),
      col((n) => notificationStatus(n.deliveries.map((d) => d.status))),
      // the dispatch span continues the accepting request's trace
      currentTraceparent(),
      dcol((d) => d.id),
      dcol((d) => d.notificationId),
      dcol((d) => d.channel),
      dcol((d) => d.status),
      dcol((d) => d.provider),
      dcol((d) => d.address),
      dcol((d) => (d.pushTargets ? JSON.stringify(d.pushTargets) : null)),
      dcol((d) => d.trackingToken),
      dcol((d) => d.reason),
    ],
  );
}

/** Which of a tenant's notifications were sent to a person: to their profile (id), to their addresses, or known by id. */
export interface SentTo {
  recipientId: string;
  addresses: readonly string[];
  ids?: readonly string[];
}

const SENT_TO = `n.organization_id = $1 and n.environment = $2
  and (n.recipient_id = $3 or n.recipient = $3 or n.recipient = any($4::text[]) or n.id = any($5::uuid[]))`;
const sentToValues = (tenant: Tenant, to: SentTo) => [
  tenant.organizationId,
  tenant.environment,
  to.recipientId,
  [...to.addresses],
  (to.ids ?? []).filter(isUuid),
];

/** The notifications sent to a person, oldest first, with the data they were rendered from (a subject access request). */
export async function notificationsSentTo(db: Sql, tenant: Tenant, to: SentTo): Promise<Array<NotificationView & { data: unknown }>> {
  const { rows } = await db.query<{ id: string; data: unknown }>(
    `select n.id, n.data from notify.notifications n where ${SENT_TO}`,
    sentToValues(tenant, to),
  );
  const data = new Map(rows.map((r) => [r.id, r.data]));
  const views = await loadViews(
    db,
    rows.map((r) => r.id),
  );
  return views.map((v) => ({ ...v, data: data.get(v.id) }));
}

/**
 * Erasure: the notifications sent to a person name the pseudonym instead of the address or
 * profile, without the data they were rendered from; their channels forget the address (a channel
 * still queued is given up). Returns their ids (the caller refreshes their statuses).
 */
export async function eraseNotificationsSentTo(db: Sql, tenant: Tenant, to: SentTo, pseudonym: string): Promise<string[]> {
  // locked in id order first, as every transaction changing deliveries does (progress.ts)
  const { rows } = await db.query<{ id: string }>(
    `select n.id from notify.notifications n where ${SENT_TO} order by n.id for update`,
    sentToValues(tenant, to),
  );
  const ids = rows.map((r) => r.id);
  if (!ids.length) return ids;
  await db.query(
    `update notify.notifications set recipient = $2, recipient_id = case when recipient_id is null then null else $2 end, data = '{}'
      where id = any($1::uuid[])`,
    [ids, pseudonym],
  );
  await db.query(
    `update notify.deliveries set address = null, push_targets = null,
            status = case when status = any($2::text[]) then $3 else status end,
            reason = case when status = any($2::text[]) then 'The recipient was erased' else reason end,
            failed_at = case when status = any($2::text[]) then now() else failed_at end,
            updated_at = now()
      where notification_id = any($1::uuid[])`,
    [ids, CHANNEL_LIFECYCLE.sources('provider.rejected'), CHANNEL_LIFECYCLE.target('provider.rejected')],
  );
  return ids;
}

/** Retention: the data of every organization's processed notifications past its `notificationBodies` period. */
export async function expireNotificationData(db: Sql): Promise<number> {
  const { rowCount } = await db.query(
    `update notify.notifications set data = '{}'
      where id in (select n.id from notify.notifications n
                    where n.processed_at is not null and n.data <> '{}' and ${pastRetention('notificationBodies', 'n', 'created_at')}
                    limit ${RETENTION_CHUNK})`,
  );
  return rowCount ?? 0;
}
