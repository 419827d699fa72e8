import type pg from 'pg';
import { inTransaction, type Sql } from '../db/transaction.js';
import type { FileService } from '../storage/file-store.js';
import { untilDone } from './retention.js';

/**
 * Runs `update` (an UPDATE … `returning id` of records owning files of `ownerType`) and deletes
 * those records' files in the same transaction (erasure, retention). Returns how many records.
 */
export async function updateDroppingFiles(
  db: Sql,
  files: FileService,
  ownerType: string,
  update: string,
  values: unknown[] = [],
): Promise<number> {
  const { rows } = await db.query<{ id: string }>(update, values);
  await files.deleteOfOwners(
    db,
    ownerType,
    rows.map((r) => r.id),
  );
  return rows.length;
}

/** Retention: `updateDroppingFiles` a chunk per transaction until nothing is left (`update` takes a chunk). */
export function expireFiles(pool: pg.Pool, files: FileService, ownerType: string, update: string): Promise<number> {
  return untilDone(() => inTransaction(pool, (db) => updateDroppingFiles(db, files, ownerType, update)));
}
