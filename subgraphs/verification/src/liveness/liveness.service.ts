import { randomBytes } from 'node:crypto';
import { findOneBy } from '../../../../platform/db/find-one-by.js';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, conflict, invalid } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { isUuid } from '../../../../platform/ids.js';
import { tenantColumns, type Tenant } from '../../../../platform/auth/tenant.js';
import { sqlOf } from '../../../../platform/db/transaction.js';
import type { FileService } from '../../../../platform/storage/file-store.js';
import type { VisionAnalysis } from '../vision/vision.types.js';
import { readImage } from '../vision/images.js';
import { faceMatchScore } from '../vision/face-match.js';
import { LivenessSession, type LivenessChallenge, type LivenessPhoto } from './liveness.entity.js';
import { LIVENESS_LIFECYCLE, type LivenessStatus, type LivenessTrigger } from './liveness.lifecycle.js';
import { recordLivenessEvent } from './liveness.events.js';
import { livenessRecord } from './liveness.record.js';
import type { ErasedUser, PersonalDataHolder } from '../../../../platform/privacy/personal-data.js';
import { fileUrl } from '../../../../platform/storage/file-routes.js';
import { pastRetention, RETENTION_CHUNK, untilDone } from '../../../../platform/privacy/retention.js';
import type { Orm } from '../../../../platform/db/orm.js';
import {
  CHALLENGE_INSTRUCTIONS,
  decide,
  drawChallengeTypes,
  FAILURE_REASONS,
  FRAMES_REQUIRED,
  judgeChallenge,
  readingOf,
  requireFrontal,
  soleFace,
  type ChallengeType,
} from './liveness.rules.js';

export interface LivenessDeps {
  files: FileService;
  vision: { analyze(jpeg: Buffer, opts?: { expression?: boolean }): Promise<VisionAnalysis> };
  /** How long a session admits submissions (the spec: 10 minutes). */
  sessionSeconds: number;
  /** Draws the challenge types (random by default; seeded in tests). */
  drawChallenges?: () => ChallengeType[];
}

export const LIVENESS_FILE_OWNER = 'liveness';
const TOKEN_PREFIX = 'lvs_';
/** 32 random bytes: not guessable, and the lookup is an index probe, so nothing to time. */
const TOKEN = /^lvs_[A-Za-z0-9_-]{43}$/;

const newToken = () => `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
const newChallenge = (type: ChallengeType): LivenessChallenge => ({
  id: `chl_${randomBytes(6).toString('hex')}`,
  type,
  instruction: CHALLENGE_INSTRUCTIONS[type],
  outcome: 'PENDING',
  framesRequired: FRAMES_REQUIRED[type],
  framesReceived: 0,
  score: null,
  measured: null,
  completedAt: null,
});

/** NOT_FOUND for an unknown token or another tenant's (the message names the field for userErrors). */
const unknownToken = () => new AppError('NOT_FOUND', 'sessionToken names no liveness session');

/** What a session's photos keep once the photos are gone: that there was a reference selfie, and when. */
/**
 * The photos go (their face readings and descriptions; the files are deleted beside): the reference
 * keeps when it was received and which file it was, so the session still says a selfie was sent.
 */
function dropPhotos(session: LivenessSession, now: Date): void {
  if (session.reference) {
    const { fileId, receivedAt } = session.reference;
    // only a finished or ended session loses its photos: nothing judges this reference again
    session.reference = { fileId, receivedAt } as LivenessPhoto;
  }
  session.frames = [];
  session.photosDeletedAt ??= now;
}

export class LivenessService implements PersonalDataHolder {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly deps: LivenessDeps,
  ) {}

  /** A new IN_PROGRESS session with 2–3 random challenges; the token is returned here only. */
  async create(userId: string): Promise<{ session: LivenessSession; sessionToken: string }> {
    const types = (this.deps.drawChallenges ?? drawChallengeTypes)();
    const session = await this.em.transactional(async (em) => {
      const { status, event } = LIVENESS_LIFECYCLE.fire(null, 'created');
      const now = new Date();
      const s = em.create(LivenessSession, {
        ...tenantColumns(this.tenant),
        userId,
        sessionToken: newToken(),
        status,
        challenges: types.map(newChallenge),
        expiresAt: new Date(now.getTime() + this.deps.sessionSeconds * 1000),
        createdAt: now,
        updatedAt: now,
      });
      recordLivenessEvent(em, event, s);
      return s;
    });
    return { session, sessionToken: session.sessionToken };
  }

  /** The caller's session with this id, or null. */
  /** The user's sessions as clients read them, with links to the photos still held (served to the organization only). */
  async exportUser(userId: string): Promise<unknown[]> {
    const all = await this.em.find(LivenessSession, { userId, ...this.tenant }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return Promise.all(
      all.map(async (s) => ({
        ...(JSON.parse(JSON.stringify(livenessRecord(s))) as Record<string, unknown>),
        photos: (await this.deps.files.ofOwner(this.tenant, LIVENESS_FILE_OWNER, s.id)).map((f) => ({ role: f.role, url: fileUrl(f.id) })),
      })),
    );
  }

  /**
   * The photos go (files, face readings and descriptions); the verdict and its scores stay. An open
   * session ends now: nothing more can be added to it.
   */
  async eraseUser({ userId, pseudonym }: ErasedUser): Promise<number> {
    const sessions = await this.em.find(LivenessSession, { userId, ...this.tenant });
    const now = new Date();
    for (const session of sessions) {
      dropPhotos(session, now);
      session.userId = pseudonym;
      if (session.expiresAt > now) session.expiresAt = now;
    }
    await this.em.flush();
    await this.deps.files.deleteOfOwners(
      sqlOf(this.em),
      LIVENESS_FILE_OWNER,
      sessions.map((s) => s.id),
    );
    return sessions.length;
  }

  /** Retention: the photos of every organization's finished sessions past its `livenessFrames` period. */
  static expirePhotos(orm: Orm, files: FileService): Promise<number> {
    return untilDone(() =>
      orm.em.fork().transactional(async (em) => {
        const { rows } = await sqlOf(em).query<{ id: string }>(
          `select s.id from verification.liveness_sessions s
            where s.status <> 'IN_PROGRESS' and s.photos_deleted_at is null and ${pastRetention('livenessFrames', 's', 'created_at')}
            limit ${RETENTION_CHUNK} for update skip locked`,
        );
        const ids = rows.map((r) => r.id);
        if (!ids.length) return 0;
        const now = new Date();
        for (const session of await em.find(LivenessSession, { id: { $in: ids } })) dropPhotos(session, now);
        await em.flush();
        await files.deleteOfOwners(sqlOf(em), LIVENESS_FILE_OWNER, ids);
        return ids.length;
      }),
    );
  }

  find(id: string): Promise<LivenessSession | null> {
    return isUuid(id) ? findOneBy(this.em, LivenessSession, { id, ...this.tenant }) : Promise.resolve(null);
  }

  /** The organization's sessions (of one user, in one status), newest first. */
  list(filter: { userId?: string | null; status?: LivenessStatus | null }, page: ConnectionArgs): Promise<Connection<LivenessSession>> {
    return paginate(
      this.em,
      LivenessSession,
      {
        ...(filter.userId != null && { userId: filter.userId }),
        ...(filter.status != null && { status: filter.status }),
        // last: a session's user wins over the filter's
        ...this.tenant,
      },
      page,
    );
  }

  /**
   * One photo of a challenge (a nod takes two: the same challengeId twice). The photo is judged at
   * once; a photo without exactly one usable face is refused (422) and may be sent again. The
   * session is decided when its last challenge is judged and the reference selfie is in.
   */
  async submitChallenge(sessionToken: string, challengeId: string, photo: Buffer): Promise<LivenessSession> {
    const open = await this.openSession(sessionToken);
    pendingChallenge(open, challengeId);
    const { jpeg, face } = await this.analyze(photo, 'photo');
    return this.apply(open.id, async (em, s) => {
      // judged again under the lock: a concurrent photo may have completed the challenge
      const challenge = pendingChallenge(s, challengeId);
      const frame = { challengeId, ...(await this.store(em, s, `challenge:${challengeId}`, jpeg)), ...face };
      s.frames = [...s.frames, frame];
      const received = challenge.framesReceived + 1;
      const counted: LivenessChallenge = { ...challenge, framesReceived: received };
      const judged = received === challenge.framesRequired ? judgedChallenge(s, counted) : counted;
      s.challenges = s.challenges.map((c) => (c.id === challengeId ? judged : c));
      s.challenges = withFaceMatches(s);
      return this.verdictOr(s, 'challenge.recorded');
    });
  }

  /** The reference selfie (once per session): one face, facing the camera; the challenge photos are matched against it. */
  async submitReferenceSelfie(sessionToken: string, selfie: Buffer): Promise<LivenessSession> {
    const open = await this.openSession(sessionToken);
    if (open.reference) throw alreadyReferenced();
    const { jpeg, face } = await this.analyze(selfie, 'selfie');
    requireFrontal(face.reading, 'selfie');
    return this.apply(open.id, async (em, s) => {
      if (s.reference) throw alreadyReferenced();
      s.reference = { ...(await this.store(em, s, 'reference', jpeg)), ...face };
      // the challenges judged before it came are judged again, against the user's own face
      s.challenges = s.challenges.map((c) => (c.outcome === 'PENDING' ? c : judgedChallenge(s, c)));
      s.challenges = withFaceMatches(s);
      return this.verdictOr(s, 'reference.recorded');
    });
  }

  /** The session a submission names, open for it: 404 for an unknown token, 409 once finished or expired. */
  private async openSession(sessionToken: string): Promise<LivenessSession> {
    if (!TOKEN.test(sessionToken)) throw unknownToken();
    const s = await this.em.findOne(LivenessSession, { sessionToken, ...this.tenant });
    if (!s) throw unknownToken();
    if (s.status === 'IN_PROGRESS' && s.expiresAt <= new Date()) {
      // the sweep has not come by yet: the submission expires it, and is refused as for any expired session
      await expireSession(this.em, s.id);
      await this.em.refresh(s);
    }
    assertOpen(s);
    return s;
  }

  /** The photo read (415/413/400), normalized and analysed off the request thread, before any transaction opens. */
  private async analyze(bytes: Buffer, field: string) {
    const { jpeg } = await readImage(bytes, field);
    const analysis = await this.deps.vision.analyze(jpeg, { expression: true });
    const face = soleFace(analysis, field);
    return { jpeg, face: { reading: readingOf(face), embedding: face.embedding.map((v) => Math.round(v * 1e6) / 1e6) } };
  }

  private async store(
    em: EntityManager,
    s: LivenessSession,
    role: string,
    jpeg: Buffer,
  ): Promise<Pick<LivenessPhoto, 'fileId' | 'receivedAt'>> {
    const file = await this.deps.files.store(sqlOf(em), this.tenant, {
      ownerType: LIVENESS_FILE_OWNER,
      userId: s.userId,
      ownerId: s.id,
      role,
      contentType: 'image/jpeg',
      bytes: jpeg,
    });
    return { fileId: file.id, receivedAt: new Date().toISOString() };
  }

  /** Decides the session when every challenge is judged and the reference is in; otherwise the given progress move. */
  private verdictOr(s: LivenessSession, progress: LivenessTrigger): LivenessTrigger {
    if (!s.reference || s.challenges.some((c) => c.outcome === 'PENDING')) return progress;
    const reference = s.reference;
    const verdict = decide({
      challenges: s.challenges.map((c) => ({ type: c.type, passed: c.outcome === 'PASSED', score: c.score ?? 0 })),
      antiSpoof: [reference.reading.antiSpoof, ...s.frames.map((f) => f.reading.antiSpoof)],
      faceMatch: s.frames.map((f) => faceMatchScore(f.embedding, reference.embedding)),
    });
    Object.assign(s, verdict, { completedAt: new Date() });
    return verdict.isAlive ? 'passed' : 'failed';
  }

  /** Every change of a session: lock, check it is open, change, move by the lifecycle table, record the event — one transaction. */
  private apply(id: string, change: (em: EntityManager, s: LivenessSession) => Promise<LivenessTrigger>): Promise<LivenessSession> {
    return this.em.transactional(async (em) => {
      const s = await em.findOneOrFail(LivenessSession, { id, ...this.tenant }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      assertOpen(s);
      const trigger = await change(em, s);
      const { status, event } = LIVENESS_LIFECYCLE.fire(s.status, trigger);
      s.status = status;
      // the flush sets updatedAt (onUpdate): the event's snapshot must show the row as stored
      await em.flush();
      recordLivenessEvent(em, event, s);
      return s;
    });
  }
}

const alreadyReferenced = () => conflict('selfie: this session already has its reference selfie');

/** Submissions go only to an IN_PROGRESS session within its life (409 otherwise, naming the token). */
function assertOpen(s: LivenessSession): void {
  if (s.status === 'EXPIRED' || (s.status === 'IN_PROGRESS' && s.expiresAt <= new Date())) {
    throw conflict(`sessionToken: the liveness session expired at ${s.expiresAt.toISOString()}; start a new session`);
  }
  if (s.status !== 'IN_PROGRESS') throw conflict(`sessionToken: the liveness session is over (${s.status}); start a new session`);
}

/** The challenge a photo is for: one of the session's (422), not judged yet (409). */
function pendingChallenge(s: LivenessSession, challengeId: string): LivenessChallenge {
  const challenge = s.challenges.find((c) => c.id === challengeId);
  if (!challenge) throw invalid(`challengeId must be one of this session's challenges: ${s.challenges.map((c) => c.id).join(', ')}`);
  if (challenge.outcome !== 'PENDING') throw conflict(`challengeId ${challengeId} was already judged (${challenge.outcome})`);
  return challenge;
}

/**
 * A challenge whose photos are all in, judged against the reference selfie; before it arrives,
 * against a typical face (liveness.rules.ts), and again when it does. `completedAt` is when its
 * last photo came.
 */
function judgedChallenge(s: LivenessSession, challenge: LivenessChallenge): LivenessChallenge {
  const frames = s.frames.filter((f) => f.challengeId === challenge.id);
  const judgment = judgeChallenge(
    challenge.type,
    frames.map((f) => f.reading),
    s.reference?.reading ?? null,
  );
  return {
    ...challenge,
    outcome: judgment.passed ? 'PASSED' : 'FAILED',
    score: judgment.score,
    measured: { ...judgment.measured, antiSpoofScore: lowest(frames.map((f) => f.reading.antiSpoof)) },
    completedAt: challenge.completedAt ?? new Date().toISOString(),
  };
}

function lowest(values: ReadonlyArray<number | null>): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? Math.min(...known) : null;
}

/**
 * Each judged challenge's face match: its photos against the reference selfie, or, before the
 * reference is in, against the session's first photo of another challenge (null when there is none).
 */
function withFaceMatches(s: LivenessSession): LivenessChallenge[] {
  return s.challenges.map((c) => {
    if (!c.measured) return c;
    const own = s.frames.filter((f) => f.challengeId === c.id);
    const anchor = s.reference ?? s.frames.find((f) => f.challengeId !== c.id);
    const match = anchor ? Math.min(...own.map((f) => faceMatchScore(f.embedding, anchor.embedding))) : null;
    return { ...c, measured: { ...c.measured, faceMatchScore: match } };
  });
}

/** An overdue session to EXPIRED (in the caller's transaction, the row locked), with its event: liveness.failed, SESSION_EXPIRED. */
async function expire(tx: EntityManager, s: LivenessSession): Promise<void> {
  const { status, event } = LIVENESS_LIFECYCLE.fire(s.status, 'expired');
  Object.assign(s, { status, isAlive: false, failureReason: FAILURE_REASONS.SESSION_EXPIRED, completedAt: new Date() });
  await tx.flush();
  recordLivenessEvent(tx, event, s);
}

/** Expires one session if it is still open and overdue (a submission came before the sweep). */
export function expireSession(em: EntityManager, id: string): Promise<void> {
  return em.fork().transactional(async (tx) => {
    const s = await tx.findOne(LivenessSession, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (s?.status === 'IN_PROGRESS' && s.expiresAt <= new Date()) await expire(tx, s);
  });
}

/**
 * Expires every overdue session, a batch at a time: `skip locked` lets every process sweep side by
 * side (and skips a session a submission holds; that submission expires it). Returns how many expired.
 */
export async function expireOverdueSessions(em: EntityManager, batch = 100): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await em.fork().transactional(async (tx) => {
      const rows = await tx.execute<Array<{ id: string }>>(
        `select id from verification.liveness_sessions
          where status = any(?::text[]) and expires_at <= now()
          order by expires_at limit ${batch} for update skip locked`,
        [`{${LIVENESS_LIFECYCLE.sources('expired').join(',')}}`],
      );
      const sessions = rows.length ? await tx.find(LivenessSession, { id: { $in: rows.map((r) => r.id) } }) : [];
      for (const s of sessions) await expire(tx, s);
      return sessions.length;
    });
    total += expired;
    if (expired < batch) return total;
  }
}
