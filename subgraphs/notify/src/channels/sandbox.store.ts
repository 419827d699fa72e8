import type { Sql } from '../../../../platform/db/transaction.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { Connection, ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { keysetConnection } from '../../../../platform/graphql/keyset.js';
import type { OutgoingMessage } from './provider.js';

/** What the sandbox providers "sent": kept so tests and integrators can see it (GraphQL `sandboxMessages`). */
export async function recordSandboxMessages(db: Sql, accepted: readonly OutgoingMessage[]): Promise<void> {
  const col = <T>(pick: (m: OutgoingMessage) => T) => accepted.map(pick);
  await db.query(
    `insert into notify.sandbox_messages (organization_id, environment, notification_id, delivery_id, channel, recipient, subject, html, title, body, whatsapp)
     select * from unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::jsonb[])`,
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
      // a voice call's text is kept as its body: what the recipient heard
      col((m) => m.content.body ?? m.content.text ?? null),
      col((m) => {
        const { template, language, parameters } = m.content;
        return m.channel === 'whatsapp' ? JSON.stringify({ template, language, parameters: parameters ?? [] }) : null;
      }),
    ],
  );
}

export interface SandboxFilter {
  notificationId?: string | null;
  channel?: string | null;
  to?: string | null;
}

export interface SandboxMessageRow {
  id: string;
  notificationId: string;
  channel: string;
  to: string;
  subject: string | null;
  html: string | null;
  title: string | null;
  body: string | null;
  whatsapp: { template: string; language: string; parameters: string[] } | null;
  createdAt: Date;
}

/** The tenant's sandbox messages, newest first. */
export function listSandboxMessages(
  db: Sql,
  tenant: Tenant,
  filter: SandboxFilter,
  args: ConnectionArgs,
): Promise<Connection<SandboxMessageRow>> {
  const where = ['s.organization_id = $1', 's.environment = $2'];
  const values: unknown[] = [tenant.organizationId, tenant.environment];
  if (filter.notificationId) where.push(`s.notification_id = $${values.push(filter.notificationId)}`);
  if (filter.channel) where.push(`s.channel = $${values.push(filter.channel)}`);
  if (filter.to) where.push(`s.recipient = $${values.push(filter.to)}`);
  return keysetConnection<SandboxMessageRow & { created_at: Date }, SandboxMessageRow>(
    db,
    {
      from: 'notify.sandbox_messages s',
      where,
      values,
      key: ['s.id'],
      descending: true,
      keyOf: (id) => `${id}::bigint`,
      isId: (id) => /^\d{1,18}$/.test(id),
      select: `s.id::text as id, s.notification_id as "notificationId", s.channel, s.recipient as "to", s.subject, s.html, s.title, s.body, s.whatsapp,
               s.created_at as "createdAt", s.created_at`,
    },
    args,
    (rows) => rows.map(({ created_at: _at, ...message }) => message),
  );
}
