import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantKey, type Tenant } from '../../../../platform/auth/tenant.js';
import { FaceGallery, vectorBytes, vectorOfBytes, type FaceQuery, type GalleryHit } from './face-gallery.js';
import { faceCrowding } from '../vision/face-match.js';
import { sqlOf } from '../../../../platform/db/transaction.js';
import { pgvectorLiteral, searchPgvector } from './pgvector.js';
import type { Keyring } from '../../../../platform/crypto/keyring.js';
import { sealedTable } from '../../../../platform/crypto/sealed-columns.js';

/**
 * The enrolled face vector (float32 bytes, base64) is sealed. Outside the search index: with
 * pgvector, `embedding_vector` must stay a plain vector for its HNSW index to search it.
 */
sealedTable({
  table: 'verification.biometric_enrollments',
  fields: [
    {
      plain: 'embedding',
      sealed: 'embeddingSealed',
      column: 'embedding_sealed',
      legacyColumn: 'embedding_plaintext',
      fromLegacy: (bytes) => (bytes as Buffer).toString('base64'),
    },
  ],
});

/** A user's enrolled face as the API shows it: when, and from which check (never the vector). */
export interface Enrollment {
  userId: string;
  enrolledAt: Date;
  sourceCheckId: string;
}

interface EnrollmentRow {
  user_id: string;
  enrolled_at: Date;
  source_check_id: string;
}

const toEnrollment = (row: EnrollmentRow): Enrollment => ({
  userId: row.user_id,
  enrolledAt: new Date(row.enrolled_at),
  sourceCheckId: row.source_check_id,
});

/** A tenant's enrolled faces while its lock is held. */
export interface LockedGallery {
  search(query: FaceQuery, minCosine: number, excludeUserId: string | null, limit: number): Promise<GalleryHit[]>;
  has(userId: string): Promise<boolean>;
}

/**
 * Enrolled faces: rows in PostgreSQL, searched in this process's memory (one FaceGallery per
 * organization and environment, loaded on first use). Every search, enrolment and removal first
 * takes the gallery's transaction lock, so two checks of one face cannot both enrol it, and then
 * catches up with what other processes committed (rows past the last `seq` held; a full reload
 * after a removal). Keep one instance per process.
 */
export class FaceGalleries {
  private galleries = new Map<string, FaceGallery>();
  /** Tenants whose every enrolled face has its crowding kept (enrolments since keep it). */
  private crowdingKept = new Set<string>();

  constructor(
    /** Enrolled faces are sealed with the organization's data key (platform/crypto). */
    private readonly keyring: Keyring,
    /** Whether enrolments also fill the pgvector column (decided once, from the schema). */
    private readonly pgvector = false,
  ) {}

  /**
   * Locks the tenant's gallery until the transaction of `em` ends and answers who is enrolled and
   * which faces resemble a query: from memory (brought up to date), or through pgvector's index.
   */
  async locked(em: EntityManager, tenant: Tenant): Promise<LockedGallery> {
    await this.lock(em, tenant);
    await this.measureCrowding(em, tenant);
    if (this.pgvector) {
      return {
        search: (query, minCosine, excludeUserId, limit) => searchPgvector(em, tenant, query, minCosine, excludeUserId, limit),
        has: async (userId) => (await this.find(em, tenant, userId)) !== null,
      };
    }
    const gallery = await this.caughtUp(em, tenant);
    return {
      search: async (query, minCosine, excludeUserId, limit) => gallery.search(query, minCosine, excludeUserId, limit),
      has: async (userId) => gallery.has(userId),
    };
  }

  /** Serializes the tenant's searches, enrolments and removals until the transaction of `em` ends. */
  async lock(em: EntityManager, tenant: Tenant): Promise<void> {
    await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`biometric-gallery:${tenantKey(tenant)}`]);
  }

  /** This process's copy of the tenant's gallery with every committed enrolment (call under the lock). */
  private async caughtUp(em: EntityManager, tenant: Tenant): Promise<FaceGallery> {
    const key = tenantKey(tenant);
    const [counter] = await em.execute<{ removals: string }[]>(
      'select removals from verification.biometric_galleries where organization_id = ? and environment = ?',
      [tenant.organizationId, tenant.environment],
    );
    const removals = Number(counter?.removals ?? 0);
    let gallery = this.galleries.get(key);
    if (!gallery) this.galleries.set(key, (gallery = new FaceGallery()));
    if (gallery.removals !== removals) {
      gallery.clear();
      gallery.removals = removals;
    }
    const rows = await em.execute<{ seq: string; user_id: string; enrolled_at: Date; embedding_sealed: string; crowding: number | null }[]>(
      `select seq, user_id, enrolled_at, embedding_sealed, crowding from verification.biometric_enrollments
        where organization_id = ? and environment = ? and seq > ? order by seq`,
      [tenant.organizationId, tenant.environment, gallery.lastSeq],
    );
    for (const row of rows) {
      const vector = await this.vectorOf(tenant, row.embedding_sealed);
      // none only from a process of an older version, enrolling during a rolling upgrade
      const crowding = row.crowding ?? faceCrowding(vector);
      gallery.add({ seq: Number(row.seq), userId: row.user_id, enrolledAt: new Date(row.enrolled_at), vector, crowding });
    }
    return gallery;
  }

  /**
   * Faces enrolled before their crowding was kept (face-match.ts `faceCrowding`) are measured and
   * kept, once per tenant and process (call under the lock): both searches read the column.
   */
  private async measureCrowding(em: EntityManager, tenant: Tenant): Promise<void> {
    const key = tenantKey(tenant);
    if (this.crowdingKept.has(key)) return;
    const rows = await em.execute<{ seq: string; embedding_sealed: string }[]>(
      `select seq, embedding_sealed from verification.biometric_enrollments
        where organization_id = ? and environment = ? and crowding is null`,
      [tenant.organizationId, tenant.environment],
    );
    const crowding = await Promise.all(rows.map(async (row) => faceCrowding(await this.vectorOf(tenant, row.embedding_sealed))));
    if (rows.length)
      await sqlOf(em).query(
        `update verification.biometric_enrollments e set crowding = m.crowding
           from unnest($1::bigint[], $2::real[]) as m(seq, crowding) where e.seq = m.seq`,
        [rows.map((row) => row.seq), crowding],
      );
    this.crowdingKept.add(key);
  }

  private async vectorOf(tenant: Tenant, sealed: string): Promise<Float32Array> {
    return vectorOfBytes(Buffer.from(await this.keyring.openJson<string>(tenant.organizationId, sealed), 'base64'));
  }

  /** Enrols a face (inside the transaction holding the gallery's lock); the gallery loads it on its next catch-up. */
  async enroll(em: EntityManager, tenant: Tenant, userId: string, { vector, crowding }: FaceQuery, sourceCheckId: string): Promise<void> {
    const columns = ['organization_id', 'environment', 'user_id', 'embedding_sealed', 'crowding', 'source_check_id'];
    const embedding = await this.keyring.sealJson(tenant.organizationId, vectorBytes(vector).toString('base64'));
    const values: unknown[] = [tenant.organizationId, tenant.environment, userId, embedding, crowding, sourceCheckId];
    if (this.pgvector) {
      columns.push('embedding_vector');
      values.push(pgvectorLiteral(vector));
    }
    await em.execute(
      `insert into verification.biometric_enrollments (${columns.join(', ')}) values (${values.map(() => '?').join(', ')})`,
      values,
    );
  }

  async find(em: EntityManager, tenant: Tenant, userId: string): Promise<Enrollment | null> {
    const [row] = await em.execute<EnrollmentRow[]>(
      `select user_id, enrolled_at, source_check_id from verification.biometric_enrollments
        where organization_id = ? and environment = ? and user_id = ?`,
      [tenant.organizationId, tenant.environment, userId],
    );
    return row ? toEnrollment(row) : null;
  }

  /** Erases a user's enrolled face (inside the transaction holding the gallery's lock); null when there was none. */
  async remove(em: EntityManager, tenant: Tenant, userId: string): Promise<Enrollment | null> {
    const [row] = await em.execute<EnrollmentRow[]>(
      `delete from verification.biometric_enrollments where organization_id = ? and environment = ? and user_id = ?
        returning user_id, enrolled_at, source_check_id`,
      [tenant.organizationId, tenant.environment, userId],
    );
    if (!row) return null;
    // every process's copy of the gallery reloads on its next search
    await em.execute(
      `insert into verification.biometric_galleries (organization_id, environment, removals) values (?, ?, 1)
        on conflict (organization_id, environment) do update set removals = biometric_galleries.removals + 1`,
      [tenant.organizationId, tenant.environment],
    );
    return toEnrollment(row);
  }
}
