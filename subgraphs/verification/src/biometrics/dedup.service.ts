import type { EntityManager } from '@mikro-orm/postgresql';
import { findOneBy } from '../../../../platform/db/find-one-by.js';
import { invalid, notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { isUuid } from '../../../../platform/ids.js';
import { tenantColumns, type Tenant } from '../../../../platform/auth/tenant.js';
import { readBase64Image } from '../vision/images.js';
import { cosineOfScore, faceCrowding, scoreOfCosine } from '../vision/face-match.js';
import type { VisionPool } from '../vision/vision.pool.js';
import { BiometricDedupCheck, type DedupMatch } from './dedup.entity.js';
import { DEDUP_LIFECYCLE, type DedupStatus, type DedupTrigger } from './dedup.lifecycle.js';
import { dedupSnapshot, recordDedupEvent, recordEnrollmentDeleted } from './dedup.events.js';
import type { ErasedUser, PersonalDataHolder } from '../../../../platform/privacy/personal-data.js';
import { sqlOf } from '../../../../platform/db/transaction.js';
import { normalizedFace } from '../vision/face-vectors.js';
import type { Enrollment, FaceGalleries } from './enrollment.store.js';

/** The spec's default: an enrolled face scoring 0.90 or more on the API's scale is the same person. */
export const DEFAULT_DEDUP_THRESHOLD = 0.9;
/** The most similar enrolled faces a duplicate lists. */
export const MAX_DEDUP_MATCHES = 10;
/** Declared selfie types: the spec's JPEG and PNG, and WebP and HEIC as every upload of the product; the bytes decide. */
export const SELFIE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'];

export interface DedupRequest {
  userId: string;
  selfieBase64: string;
  selfieMimeType?: string | null;
  threshold?: number | null;
  enroll?: boolean | null;
}

export interface DedupDeps {
  vision: Pick<VisionPool, 'analyze'>;
  galleries: FaceGalleries;
}

/** Value checks (422); GraphQL has checked presence and types (400). */
export function validateDedupRequest(req: DedupRequest): string[] {
  const errors: string[] = [];
  if (!req.userId.trim()) errors.push('userId must not be empty');
  if (req.selfieMimeType != null && !SELFIE_MIME_TYPES.includes(req.selfieMimeType.toLowerCase()))
    errors.push(`selfieMimeType must be one of: ${SELFIE_MIME_TYPES.join(', ')}`);
  if (req.threshold != null && !(req.threshold >= 0 && req.threshold <= 1)) errors.push('threshold must be between 0 and 1');
  return errors;
}

export class DedupService implements PersonalDataHolder {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly deps: DedupDeps,
  ) {}

  /**
   * Embeds the selfie's one face (off-thread), then, holding the organization's gallery lock,
   * compares it with every other user's enrolled face and enrols it when unique — one transaction
   * with the check and its event. No face, or several, is an ERROR check (the request was valid).
   */
  async check(req: DedupRequest): Promise<BiometricDedupCheck> {
    const errors = validateDedupRequest(req);
    if (errors.length) throw invalid(errors);
    const { jpeg } = await readBase64Image(req.selfieBase64, 'selfieBase64');
    const { faces } = await this.deps.vision.analyze(jpeg);
    const threshold = req.threshold ?? DEFAULT_DEDUP_THRESHOLD;
    const base = { ...tenantColumns(this.tenant), userId: req.userId, threshold };
    if (faces.length !== 1) {
      const errorReason = faces.length
        ? `${faces.length} faces were detected in the image; send a selfie with one face`
        : 'No face was detected in the image';
      return this.em.transactional(async (em) => this.record(em, 'checked.error', { ...base, errorReason }));
    }
    const vector = normalizedFace(faces[0].embedding);
    const face = { vector, crowding: faceCrowding(vector) };
    return this.em.transactional(async (em) => {
      const gallery = await this.deps.galleries.locked(em, this.tenant);
      // the user's own enrolled face is no duplicate of another person
      const hits = await gallery.search(face, cosineOfScore(threshold) - 1e-6, req.userId, MAX_DEDUP_MATCHES);
      const matches: DedupMatch[] = hits
        .map((hit) => ({ matchedUserId: hit.userId, similarity: scoreOfCosine(hit.cosine), enrolledAt: hit.enrolledAt.toISOString() }))
        .filter((match) => match.similarity >= threshold);
      if (matches.length) return this.record(em, 'checked.duplicate', { ...base, matches });
      const enroll = req.enroll ?? true;
      const check = this.record(em, 'checked.unique', { ...base, enrolled: enroll });
      // one enrolled face per user: a unique re-check keeps the first
      if (enroll && !(await gallery.has(req.userId))) await this.deps.galleries.enroll(em, this.tenant, req.userId, face, check.id);
      return check;
    });
  }

  /** The caller's check with this id, or null. */
  find(id: string): Promise<BiometricDedupCheck | null> {
    return isUuid(id) ? findOneBy(this.em, BiometricDedupCheck, { id, ...this.tenant }) : Promise.resolve(null);
  }

  /** The organization's checks (of one user, in one status), newest first. */
  list(filter: { userId?: string | null; status?: DedupStatus | null }, page: ConnectionArgs): Promise<Connection<BiometricDedupCheck>> {
    return paginate(
      this.em,
      BiometricDedupCheck,
      {
        ...(filter.userId != null && { userId: filter.userId }),
        ...(filter.status != null && { status: filter.status }),
        // last: a session's user wins over the filter's
        ...this.tenant,
      },
      page,
    );
  }

  /** The user's enrolled face (when and from which check), or null. */
  enrollment(userId: string): Promise<Enrollment | null> {
    if (this.tenant.userId !== undefined && this.tenant.userId !== userId) return Promise.resolve(null);
    return this.deps.galleries.find(this.em, this.tenant, userId);
  }

  /** Erases the user's enrolled face (their checks stay, without any face data); NOT_FOUND when none. */
  async deleteEnrollment(userId: string): Promise<Enrollment> {
    return this.em.transactional(async (em) => {
      await this.deps.galleries.lock(em, this.tenant);
      const removed = await this.deps.galleries.remove(em, this.tenant, userId);
      if (!removed) throw notFound('Biometric enrollment of user', userId);
      recordEnrollmentDeleted(em, this.tenant, removed);
      return removed;
    });
  }

  /** The user's checks and when their face was enrolled (never the face itself). */
  async exportUser(userId: string): Promise<unknown[]> {
    const checks = await this.em.find(BiometricDedupCheck, { userId, ...this.tenant }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    const enrolled = await this.deps.galleries.find(this.em, this.tenant, userId);
    return [...checks.map(dedupSnapshot), ...(enrolled ? [{ enrollment: JSON.parse(JSON.stringify(enrolled)) as unknown }] : [])];
  }

  /**
   * The enrolled face goes (every process's search index reloads without it, so it matches no one
   * again); the user's checks stay with their outcome, and other users' checks that matched them
   * name the pseudonym instead.
   */
  async eraseUser({ userId, pseudonym }: ErasedUser): Promise<number> {
    await this.deps.galleries.lock(this.em, this.tenant);
    const removed = await this.deps.galleries.remove(this.em, this.tenant, userId);
    const own = await this.em.nativeUpdate(BiometricDedupCheck, { userId, ...this.tenant }, { userId: pseudonym });
    const { rows } = await sqlOf(this.em).query<{ id: string }>(
      `update verification.biometric_dedup_checks c
          set matches = (select jsonb_agg(case when m ->> 'matchedUserId' = $3 then jsonb_set(m, '{matchedUserId}', to_jsonb($4::text)) else m end
                                          order by n)
                           from jsonb_array_elements(c.matches) with ordinality as t(m, n))
        where c.organization_id = $1 and c.environment = $2 and c.matches @> jsonb_build_array(jsonb_build_object('matchedUserId', $3::text))
        returning c.id`,
      [this.tenant.organizationId, this.tenant.environment, userId, pseudonym],
    );
    return (removed ? 1 : 0) + own + rows.length;
  }

  /** A new check in its final status, as the lifecycle creates it, with its event. */
  private record(
    em: EntityManager,
    trigger: DedupTrigger,
    init: Pick<BiometricDedupCheck, 'organizationId' | 'environment' | 'userId' | 'threshold'> & Partial<BiometricDedupCheck>,
  ): BiometricDedupCheck {
    const { status, event } = DEDUP_LIFECYCLE.fire(null, trigger);
    const matches = init.matches ?? [];
    const check = em.create(BiometricDedupCheck, {
      ...init,
      status,
      matchFound: matches.length > 0,
      enrolled: init.enrolled ?? false,
      matches,
      checkedAt: new Date(),
    });
    recordDedupEvent(em, event, check);
    return check;
  }
}
