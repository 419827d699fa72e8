import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../auth/principal.js';
import pg from 'pg';
import { inTransaction, sqlOf, type Sql } from '../db/transaction.js';

/**
 * What the trail records. Add an action here (and its description in audit.type.ts) before
 * recording it; names are `<resource>.<past participle>`.
 */
export const AUDIT_ACTIONS = [
  'file.viewed',
  'identity_verification.reviewed',
  'document_verification.reviewed',
  'address_verification.reviewed',
  'business_verification.reviewed',
  'cognitive_kyc_check.reviewed',
  'aml_match.resolved',
  'watchlist_alert.reviewed',
  'risk_rule.changed',
  'api_client.revoked',
  'api_client.rotated',
  'data_key.rotated',
  'data.reencrypted',
  'user.erased',
  'user.exported',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: an API key (its client), a session (its user, and the key that minted it), the operator, or the platform itself. */
export interface AuditActor {
  kind: 'client' | 'session' | 'admin' | 'system';
  clientId: string | null;
  userId: string | null;
}

export const SYSTEM_ACTOR: AuditActor = { kind: 'system', clientId: null, userId: null };

export function actorOf(principal: Principal | null): AuditActor {
  if (!principal) return SYSTEM_ACTOR;
  return { kind: principal.kind, clientId: principal.clientId, userId: principal.kind === 'session' ? (principal.userId ?? null) : null };
}

/** Flat facts about what happened (a decision, a status, a file's role): never personal data. */
export type AuditDetails = Record<string, string | number | boolean | null>;

export interface AuditRecord {
  organizationId: string;
  environment: string;
  action: AuditAction;
  actor: AuditActor;
  /** The person named by the caller as having acted (`reviewedBy`, `resolvedBy`), as given. */
  reviewer?: string | null;
  resourceType: string;
  resourceId: string;
  /** The user the record is about (the data subject), when there is one. */
  userId?: string | null;
  details?: AuditDetails;
}

export interface AuditEntry extends Required<Omit<AuditRecord, 'details'>> {
  seq: number;
  occurredAt: Date;
  details: AuditDetails;
  prevHash: string;
  hash: string;
}

/** The previous hash of an organization's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** Keys sorted, so a row read back (jsonb reorders keys) hashes as it was written. */
const canonicalDetails = (details: AuditDetails) => Object.fromEntries(Object.entries(details).sort(([a], [b]) => (a < b ? -1 : 1)));

/** The hash of an entry: SHA-256 over the previous hash and every field, in a fixed order. */
export function entryHash(e: Omit<AuditEntry, 'hash'>): string {
  const fields = [
    e.organizationId,
    e.seq,
    e.environment,
    e.occurredAt.toISOString(),
    e.action,
    e.actor.kind,
    e.actor.clientId,
    e.actor.userId,
    e.reviewer,
    e.resourceType,
    e.resourceId,
    e.userId,
    canonicalDetails(e.details),
  ];
  return createHash('sha256').update(e.prevHash).update(JSON.stringify(fields)).digest('hex');
}

/**
 * Appends an entry to the organization's audit trail, in the caller's transaction (so the audited
 * change and its entry commit together, or neither does; given the pool, or an EntityManager
 * outside a transaction, it makes its own): the organization's chain is locked for the rest of the
 * transaction, the entry takes the next position and the hash of the previous one.
 * Usable from any service: `await recordAudit(em, { organizationId, environment, action,
 * actor: actorOf(ctx.principal), resourceType, resourceId, userId })`.
 */
export async function recordAudit(tx: pg.Pool | pg.PoolClient | EntityManager, record: AuditRecord): Promise<void> {
  // the chain's lock lasts until the transaction ends: outside one, make one
  if (tx instanceof pg.Pool) return inTransaction(tx, (client) => recordAudit(client, record));
  if (!(tx instanceof pg.Client) && !tx.isInTransaction()) return tx.transactional((em) => recordAudit(em, record));
  const sql = sqlOf(tx);
  await sql.query(`select pg_advisory_xact_lock(hashtext('audit:' || $1))`, [record.organizationId]);
  const { rows } = await sql.query<{ seq: string; hash: string }>(
    `select seq, hash from platform.audit_entries where organization_id = $1 order by seq desc limit 1`,
    [record.organizationId],
  );
  const entry: Omit<AuditEntry, 'hash'> = {
    organizationId: record.organizationId,
    environment: record.environment,
    action: record.action,
    actor: record.actor,
    reviewer: record.reviewer ?? null,
    resourceType: record.resourceType,
    resourceId: record.resourceId,
    userId: record.userId ?? null,
    details: record.details ?? {},
    seq: Number(rows[0]?.seq ?? 0) + 1,
    occurredAt: new Date(),
    prevHash: rows[0]?.hash ?? GENESIS_HASH,
  };
  await sql.query(
    `insert into platform.audit_entries (organization_id, seq, environment, occurred_at, action, actor_kind, actor_client_id,
       actor_user_id, reviewer, resource_type, resource_id, user_id, details, prev_hash, hash)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      entry.organizationId,
      entry.seq,
      entry.environment,
      entry.occurredAt,
      entry.action,
      entry.actor.kind,
      entry.actor.clientId,
      entry.actor.userId,
      entry.reviewer,
      entry.resourceType,
      entry.resourceId,
      entry.userId,
      JSON.stringify(entry.details),
      entry.prevHash,
      entryHash(entry),
    ],
  );
}

/** The columns of an AuditRow, of the table or of its alias (`a.`). */
export const auditColumns = (t = '') => `${t}organization_id as "organizationId", ${t}seq, ${t}environment, ${t}occurred_at as "occurredAt",
  ${t}action, ${t}actor_kind as "actorKind", ${t}actor_client_id as "actorClientId", ${t}actor_user_id as "actorUserId", ${t}reviewer,
  ${t}resource_type as "resourceType", ${t}resource_id as "resourceId", ${t}user_id as "userId", ${t}details,
  ${t}prev_hash as "prevHash", ${t}hash`;

export interface AuditRow {
  organizationId: string;
  seq: string;
  environment: string;
  occurredAt: Date | string;
  action: AuditAction;
  actorKind: AuditActor['kind'];
  actorClientId: string | null;
  actorUserId: string | null;
  reviewer: string | null;
  resourceType: string;
  resourceId: string;
  userId: string | null;
  details: AuditDetails | string;
  prevHash: string;
  hash: string;
}

export function entryOf(row: AuditRow): AuditEntry {
  return {
    organizationId: row.organizationId,
    seq: Number(row.seq),
    environment: row.environment,
    // a Date from pg, a string through MikroORM's connection: one instant either way
    occurredAt: new Date(row.occurredAt),
    action: row.action,
    actor: { kind: row.actorKind, clientId: row.actorClientId, userId: row.actorUserId },
    reviewer: row.reviewer,
    resourceType: row.resourceType,
    resourceId: row.resourceId,
    userId: row.userId,
    details: typeof row.details === 'string' ? (JSON.parse(row.details) as AuditDetails) : row.details,
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

export interface ChainVerification {
  valid: boolean;
  entriesChecked: number;
  /** The first entry whose hash or link does not hold (the edited one, or the one after a removed one). */
  firstBroken: { seq: number; reason: string } | null;
}

/**
 * Recomputes the organization's chain from its first entry: each entry's hash must be the hash of
 * its fields and the previous entry's hash, and positions must follow each other. An entry edited
 * in place (its fields or its hash), removed or reordered breaks it at that entry.
 */
export async function verifyChain(sql: Sql, organizationId: string): Promise<ChainVerification> {
  let prev = GENESIS_HASH;
  let expectedSeq = 1;
  let checked = 0;
  for (let after = 0; ;) {
    const { rows } = await sql.query<AuditRow>(
      `select ${auditColumns()} from platform.audit_entries where organization_id = $1 and seq > $2 order by seq limit 1000`,
      [organizationId, after],
    );
    for (const row of rows) {
      const entry = entryOf(row);
      checked += 1;
      const broken = (reason: string): ChainVerification => ({
        valid: false,
        entriesChecked: checked,
        firstBroken: { seq: entry.seq, reason },
      });
      if (entry.seq !== expectedSeq) return broken(`entry ${expectedSeq} is missing`);
      if (entry.prevHash !== prev) return broken('its previous hash is not the hash of the entry before it');
      if (entryHash(entry) !== entry.hash) return broken('its content does not match its hash');
      prev = entry.hash;
      expectedSeq += 1;
    }
    if (rows.length < 1000) return { valid: true, entriesChecked: checked, firstBroken: null };
    after = Number(rows[rows.length - 1].seq);
  }
}
