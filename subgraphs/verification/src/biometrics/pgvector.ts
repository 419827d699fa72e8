import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../../../../platform/db/transaction.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { FaceQuery, GalleryHit } from './face-gallery.js';
import { CROWDING } from '../vision/face-match.js';

/**
 * The pgvector path, used where the migration could add the `embedding_vector` column (a server
 * with the extension; the embedded PostgreSQL of development and tests has none, so this path runs
 * only against such a DATABASE_URL). HNSW on inner product (normalized vectors: the cosine), with
 * iterative scans (pgvector ≥ 0.8) so the tenant filter cannot starve the nearest-neighbour walk.
 * Approximate where the in-process search is exact: recall depends on `hnsw.ef_search`.
 */

export const EF_SEARCH = 200;

/** Whether the enrolments table has the pgvector column (the migration adds it where it can). */
export async function hasPgvector(db: Sql): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from information_schema.columns
      where table_schema = 'verification' and table_name = 'biometric_enrollments' and column_name = 'embedding_vector'`,
  );
  return rows.length > 0;
}

/** pgvector's text form of a vector. */
export function pgvectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector).join(',')}]`;
}

/**
 * Nearest enrolled faces of other users through the HNSW index (in the transaction holding the
 * gallery's lock), on the crowding-adjusted cosine (face-match.ts `adjustedCosine`, written out in
 * SQL). The index walks by raw cosine, so the hits are sorted again by the adjusted one. A face
 * without crowding (enrolled by an older version during a rolling upgrade) counts as not crowded.
 */
export async function searchPgvector(
  em: EntityManager,
  tenant: Tenant,
  query: FaceQuery,
  minCosine: number,
  excludeUserId: string | null,
  limit: number,
): Promise<GalleryHit[]> {
  await em.execute(`set local hnsw.ef_search = ${EF_SEARCH}`);
  await em.execute(`set local hnsw.iterative_scan = strict_order`);
  const vector = pgvectorLiteral(query.vector);
  const { weight } = CROWDING;
  const rows = await em.execute<{ user_id: string; enrolled_at: Date; cosine: number }[]>(
    `select user_id, enrolled_at, -(embedding_vector <#> ?::vector) - ?::float8 * greatest(0, (?::float8 + coalesce(crowding, 0)) / 2) as cosine
       from verification.biometric_enrollments
      where organization_id = ? and environment = ? and user_id is distinct from ?
        and -(embedding_vector <#> ?::vector) - ?::float8 * greatest(0, (?::float8 + coalesce(crowding, 0)) / 2) >= ?
      order by embedding_vector <#> ?::vector
      limit ?`,
    [
      ...[vector, weight, query.crowding],
      ...[tenant.organizationId, tenant.environment, excludeUserId],
      ...[vector, weight, query.crowding, minCosine],
      ...[vector, limit],
    ],
  );
  return rows
    .map((row) => ({ userId: row.user_id, cosine: Number(row.cosine), enrolledAt: new Date(row.enrolled_at) }))
    .sort((a, b) => b.cosine - a.cosine);
}
