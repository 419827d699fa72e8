import { channelOrderSql, type Channel } from '../channels/channel.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { BatchStatus } from '../notifications/notification.lifecycle.js';
import type { Sql } from '../../../../platform/db/transaction.js';

export interface BatchView {
  id: string;
  template: string;
  templateVersion: number;
  templateId: string;
  channels: Channel[];
  total: number;
  /** Recipients not yet handed to providers (or given up): total − processed. */
  queued: number;
  processed: number;
  /** Recipients with at least one channel taken by a provider. */
  succeeded: number;
  /** Recipients none of whose channels could be sent. */
  failed: number;
  status: BatchStatus;
  createdAt: Date;
  completedAt: Date | null;
  organizationId: string;
  environment: string;
}

export const BATCH_COLUMNS = `id, template_name, template_version, template_id, channels, total, processed, succeeded, failed, status, created_at, completed_at, organization_id, environment`;

export function toBatchView(r: any): BatchView {
  return {
    id: r.id,
    template: r.template_name,
    templateVersion: r.template_version,
    templateId: r.template_id,
    channels: r.channels,
    total: r.total,
    queued: r.total - r.processed,
    processed: r.processed,
    succeeded: r.succeeded,
    failed: r.failed,
    status: r.status,
    createdAt: new Date(r.created_at),
    completedAt: r.completed_at ? new Date(r.completed_at) : null,
    organizationId: r.organization_id,
    environment: r.environment,
  };
}

export async function loadBatch(db: Sql, tenant: Tenant, id: string): Promise<BatchView | null> {
  const { rows } = await db.query(
    `select ${BATCH_COLUMNS} from notify.batches where id = $1 and organization_id = $2 and environment = $3`,
    [id, tenant.organizationId, tenant.environment],
  );
  return rows[0] ? toBatchView(rows[0]) : null;
}

/** The tenant's batches with these ids (those that exist). */
export async function loadBatches(db: Sql, tenant: Tenant, ids: readonly string[]): Promise<BatchView[]> {
  if (!ids.length) return [];
  const { rows } = await db.query(
    `select ${BATCH_COLUMNS} from notify.batches where id = any($1::uuid[]) and organization_id = $2 and environment = $3`,
    [ids, tenant.organizationId, tenant.environment],
  );
  return rows.map(toBatchView);
}

export interface ChannelProgress {
  channel: Channel;
  queued: number;
  sent: number;
  delivered: number;
  opened: number;
  failed: number;
  undeliverable: number;
}

/** Current channel statuses of a batch's notifications (delivery reports and opens included). */
export async function channelProgress(db: Sql, tenant: Tenant, batchId: string): Promise<ChannelProgress[]> {
  const { rows } = await db.query(
    `select d.channel,
            count(*) filter (where d.status = 'queued')::int as queued, count(*) filter (where d.status = 'sent')::int as sent,
            count(*) filter (where d.status = 'delivered')::int as delivered, count(*) filter (where d.status = 'opened')::int as opened,
            count(*) filter (where d.status = 'failed')::int as failed, count(*) filter (where d.status = 'undeliverable')::int as undeliverable
       from notify.notifications n join notify.deliveries d on d.notification_id = n.id
      where n.batch_id = $1 and n.organization_id = $2 and n.environment = $3
      group by d.channel order by ${channelOrderSql('d.channel')}`,
    [batchId, tenant.organizationId, tenant.environment],
  );
  return rows;
}
