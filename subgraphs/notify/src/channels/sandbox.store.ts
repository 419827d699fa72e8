import type { Sql } from '../../../../platform/db/transaction.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { Connection, ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { keysetConnection } from '../../../../platform/graphql/keyset.js';
import type { OutgoingMessage } from './provider.js';
import { pastRetention, RETENTION_CHUNK } from '../../../../platform/privacy/retention.js';

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

/** The sandbox messages of these notifications, oldest first (a subject access request). */
export async function sandboxMessagesOf(db: Sql, notificationIds: readonly string[]): Promise<SandboxMessageRow[]> {
  if (!notificationIds.length) return [];
  const { rows } = await db.query<SandboxMessageRow>(
    `select s.id::text as id, s.notification_id as "notificationId", s.channel, s.recipient as "to", s.subject, s.html, s.title, s.body,
            s.whatsapp, s.created_at as "createdAt"
       from notify.sandbox_messages s where s.notification_id = any($1::uuid[]) order by s.id`,
    [[...notificationIds]],
  );
  return rows;
}

const BODIES_GONE = 'subject = null, html = null, title = null, body = null, whatsapp = null';

/** Erasure: the sandbox messages of these notifications keep their channel and time, not what they said nor to whom. */
export async function eraseSandboxMessages(db: Sql, notificationIds: readonly string[], pseudonym: string): Promise<number> {
  if (!notificationIds.length) return 0;
  const { rows } = await db.query(
    `update notify.sandbox_messages set recipient = $2, ${BODIES_GONE} where notification_id = any($1::uuid[]) returning 1`,
    [[...notificationIds], pseudonym],
  );
  return rows.length;
}

/** Retention: what every organization's sandbox messages said, past its `notificationBodies` period. */
export async function expireSandboxBodies(db: Sql): Promise<number> {
  const { rowCount } = await db.query(
    `update notify.sandbox_messages set ${BODIES_GONE}
      where id in (select s.id from notify.sandbox_messages s
                    where (s.subject is not null or s.html is not null or s.title is not null or s.body is not null or s.whatsapp is not null)
                      and ${pastRetention('notificationBodies', 's', 'created_at')} limit ${RETENTION_CHUNK})`,
  );
  return rowCount ?? 0;
}
