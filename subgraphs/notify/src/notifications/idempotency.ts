import { createHash } from 'node:crypto';
import { badInput, conflict } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { Sql } from '../../../../platform/db/transaction.js';

/** How long an `Idempotency-Key` is remembered. */
export const IDEMPOTENCY_TTL_HOURS = 24;

export const requestHash = (request: unknown): string => createHash('sha256').update(JSON.stringify(request)).digest('hex');

export type Claim = { replay: Record<string, unknown> } | { fresh: true };

/**
 * Takes `key` for this request inside the caller's transaction. A key already used for the same
 * request returns its first response (`replay`); for a different request it is a 409. A concurrent
 * use of the key waits for the first transaction: its insert holds the key until it commits.
 */
export async function claimIdempotencyKey(db: Sql, tenant: Tenant, operation: string, key: string, hash: string): Promise<Claim> {
  const ids = [tenant.organizationId, tenant.environment, operation, key];
  // a key older than the TTL is forgotten
  await db.query(
    `delete from notify.idempotency_keys where organization_id = $1 and environment = $2 and operation = $3 and key = $4
        and created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
    ids,
  );
  const inserted = await db.query(
    `insert into notify.idempotency_keys (organization_id, environment, operation, key, request_hash) values ($1, $2, $3, $4, $5)
     on conflict do nothing`,
    [...ids, hash],
  );
  if (inserted.rowCount) return { fresh: true };
  const { rows } = await db.query<{ request_hash: string; response: Record<string, unknown> | null }>(
    'select request_hash, response from notify.idempotency_keys where organization_id = $1 and environment = $2 and operation = $3 and key = $4',
    ids,
  );
  if (!rows[0] || rows[0].request_hash !== hash || !rows[0].response) {
    throw conflict('This Idempotency-Key was already used for a different request');
  }
  return { replay: rows[0].response };
}

export async function storeIdempotentResponse(db: Sql, tenant: Tenant, operation: string, key: string, response: unknown): Promise<void> {
  await db.query(
    'update notify.idempotency_keys set response = $5 where organization_id = $1 and environment = $2 and operation = $3 and key = $4',
    [tenant.organizationId, tenant.environment, operation, key, JSON.stringify(response)],
  );
}

export function validateIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (!key.trim() || key.length > 255) throw badInput('Idempotency-Key must be 1-255 characters');
  return key;
}

/** Erasure: the answers remembered for sends of these notifications (they name the recipient) are forgotten. */
export async function forgetIdempotentSends(db: Sql, tenant: Tenant, notificationIds: readonly string[]): Promise<number> {
  if (!notificationIds.length) return 0;
  const { rows } = await db.query(
    `delete from notify.idempotency_keys where organization_id = $1 and environment = $2 and operation = 'send' and response ->> 'id' = any($3::text[])
     returning 1`,
    [tenant.organizationId, tenant.environment, [...notificationIds]],
  );
  return rows.length;
}
