import { randomUUID } from 'node:crypto';
import { sealedEntity } from '../../../../platform/crypto/sealed-columns.js';
import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { LivenessStatus } from './liveness.lifecycle.js';
import type { ChallengeMeasures, ChallengeType, FaceReading } from './liveness.rules.js';

export const CHALLENGE_OUTCOMES = ['PENDING', 'PASSED', 'FAILED'] as const;
export type ChallengeOutcome = (typeof CHALLENGE_OUTCOMES)[number];

/** One challenge of a session, as the client sees it. */
export interface LivenessChallenge {
  id: string;
  type: ChallengeType;
  instruction: string;
  outcome: ChallengeOutcome;
  framesRequired: number;
  framesReceived: number;
  /** The judgment's 0–1 score (≥ 0.5 passes); null until judged. */
  score: number | null;
  measured: (ChallengeMeasures & { antiSpoofScore?: number | null; faceMatchScore?: number | null }) | null;
  completedAt: string | null;
}

/** One accepted photo: what the models read and the face's description (never shown). */
export interface LivenessPhoto {
  fileId: string;
  reading: FaceReading;
  embedding: number[];
  receivedAt: string;
}

export interface LivenessFrame extends LivenessPhoto {
  challengeId: string;
}

@Entity({ schema: 'verification', tableName: 'liveness_sessions' })
export class LivenessSession {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'text' })
  userId!: string;

  /**
   * The credential of the session's submissions (valid while IN_PROGRESS, at most its life). Kept
   * because the outcome's webhook carries it, as the published API does: integrators match
   * webhooks to sessions by it. Never shown in a record or a list.
   */
  @Property({ type: 'text' })
  sessionToken!: string;

  /** Written only through LIVENESS_LIFECYCLE. */
  @Property({ type: 'text' })
  status!: LivenessStatus;

  @Property({ type: 'json' })
  challenges!: LivenessChallenge[];

  @Property({ type: 'json', nullable: true, persist: false })
  reference?: LivenessPhoto | null;

  /** reference, sealed with the organization's data key (platform/crypto). */
  @Property({ type: 'text', nullable: true, hidden: true })
  referenceSealed?: string | null;

  @Property({ type: 'json', persist: false })
  frames: LivenessFrame[] & Opt = [];

  /** frames, sealed with the organization's data key (platform/crypto). */
  @Property({ type: 'text', nullable: true, hidden: true })
  framesSealed?: string | null;

  /** When the photos went (erasure, retention): the reference keeps only its file id and time, the frames none. */
  @Property({ type: 'datetime', nullable: true })
  photosDeletedAt?: Date | null;

  @Property({ type: 'boolean', nullable: true })
  isAlive?: boolean | null;

  @Property({ type: 'double', nullable: true })
  confidence?: number | null;

  @Property({ type: 'double', nullable: true })
  antiSpoofScore?: number | null;

  @Property({ type: 'double', nullable: true })
  faceMatchScore?: number | null;

  @Property({ type: 'text', nullable: true })
  failureReason?: string | null;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();

  @Property({ type: 'datetime', nullable: true })
  completedAt?: Date | null;
}

sealedEntity(LivenessSession, {
  table: 'verification.liveness_sessions',
  fields: [
    { plain: 'reference', sealed: 'referenceSealed', column: 'reference_sealed', legacyColumn: 'reference_plaintext' },
    { plain: 'frames', sealed: 'framesSealed', column: 'frames_sealed', legacyColumn: 'frames_plaintext' },
  ],
});
