import type { Tenant } from '../../../../platform/auth/tenant.js';
import { auditColumns, entryOf, verifyChain, type AuditAction, type AuditRow } from '../../../../platform/audit/audit.js';
import type { Sql } from '../../../../platform/db/transaction.js';
import type { Connection, ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { keysetConnection } from '../../../../platform/graphql/keyset.js';
import { auditActionName, type AuditActorType, type AuditChainVerificationType, type AuditEntryType } from './audit.type.js';

export interface AuditFilter {
  userId?: string | null;
  action?: AuditAction | null;
  resourceId?: string | null;
}

const toEntry = (row: AuditRow & { clientName: string | null }): AuditEntryType => {
  const e = entryOf(row);
  const actor: AuditActorType = {
    kind: e.actor.kind.toUpperCase() as AuditActorType['kind'],
    clientId: e.actor.clientId,
    clientName: row.clientName,
    sessionUserId: e.actor.userId,
  };
  return { ...e, id: String(e.seq), action: auditActionName(e.action), actor, previousHash: e.prevHash };
};

/** The organization's audit trail (platform/audit), as its keys read it: their environment's entries. */
export class AuditService {
  constructor(
    private readonly db: Sql,
    private readonly tenant: Tenant,
  ) {}

  list(filter: AuditFilter, page: ConnectionArgs): Promise<Connection<AuditEntryType>> {
    const where = ['a.organization_id = $1', 'a.environment = $2'];
    const values: unknown[] = [this.tenant.organizationId, this.tenant.environment];
    if (filter.userId != null) where.push(`a.user_id = $${values.push(filter.userId)}`);
    if (filter.action != null) where.push(`a.action = $${values.push(filter.action)}`);
    if (filter.resourceId != null) where.push(`a.resource_id = $${values.push(filter.resourceId)}`);
    return keysetConnection<AuditRow & { clientName: string | null; id: string; created_at: Date }, AuditEntryType>(
      this.db,
      {
        from: 'platform.audit_entries a left join platform.api_clients c on c.id = a.actor_client_id',
        where,
        values,
        key: ['a.seq'],
        descending: true,
        keyOf: (id) => `${id}::bigint`,
        isId: (id) => /^\d{1,18}$/.test(id),
        select: `${auditColumns('a.')}, c.name as "clientName", a.seq::text as id, a.occurred_at as created_at`,
      },
      page,
      (rows) => rows.map(toEntry),
    );
  }

  /** Recomputes the organization's whole chain (both environments: it is one chain). */
  async verify(): Promise<AuditChainVerificationType> {
    const result = await verifyChain(this.db, this.tenant.organizationId);
    return {
      valid: result.valid,
      entriesChecked: result.entriesChecked,
      firstBrokenEntry: result.firstBroken ? { id: String(result.firstBroken.seq), reason: result.firstBroken.reason } : null,
      checkedAt: new Date(),
    };
  }
}
