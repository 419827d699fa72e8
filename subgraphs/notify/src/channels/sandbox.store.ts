import type { Sql } from '../../../../platform/db/transaction.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { OutgoingMessage } from './provider.js';

/** What the sandbox providers "sent": kept so tests and integrators can see it (GraphQL `sandboxMessages`). */
export async function recordSandboxMessages(db: Sql, accepted: readonly OutgoingMessage[]): Promise<void> {
  const col = <T>(pick: (m: OutgoingMessage) => T) => accepted.map(pick);
  await db.query(
    `insert into notify.sandbox_messages (organization_id, environment, notification_id, delivery_id, channel, recipient, subject, html, title, body)
     select * from unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])`,
    [
      col((m) => m.organizationId),
      col((m) => m.environment),
      col((m) => m.notificationId),
      col((m) => m.deliveryId),
      col((m) => m.channel),
      col((m) => m.to),
      col((m) => m.content.subject ?? null),
      col((m) => m.content.html ?? null),
      col((m) => m.content.title ?? null),
      col((m) => m.content.body ?? null),
    ],
  );
}

export interface SandboxFilter {
  notificationId?: string | null;
  channel?: string | null;
  to?: string | null;
}

/** The tenant's sandbox messages, newest first. */
export async function listSandboxMessages(db: Sql, tenant: Tenant, filter: SandboxFilter, page: number, limit: number) {
  const where = ['organization_id = $1', 'environment = $2'];
  const values: unknown[] = [tenant.organizationId, tenant.environment];
  if (filter.notificationId) where.push(`notification_id = $${values.push(filter.notificationId)}`);
  if (filter.channel) where.push(`channel = $${values.push(filter.channel)}`);
  if (filter.to) where.push(`recipient = $${values.push(filter.to)}`);
  const filtered = `from notify.sandbox_messages where ${where.join(' and ')}`;
  const total = Number((await db.query(`select count(*) as n ${filtered}`, values)).rows[0].n);
  const { rows } = await db.query(
    `select id::text, notification_id as "notificationId", channel, recipient as "to", subject, html, title, body, created_at as "createdAt"
       ${filtered} order by id desc limit $${values.length + 1} offset $${values.length + 2}`,
    [...values, limit, (page - 1) * limit],
  );
  return { data: rows, total };
}
