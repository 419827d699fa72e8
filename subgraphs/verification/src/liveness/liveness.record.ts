import type { LivenessChallenge, LivenessSession } from './liveness.entity.js';
import type { LivenessStatus } from './liveness.lifecycle.js';
import { fileUrl } from '../../../../platform/storage/file-routes.js';
import { sessionInstructions } from './liveness.rules.js';

/** A session as clients read it (GraphQL, REST, subscriptions): its token and face descriptions stay inside. */
export interface LivenessRecord {
  id: string;
  userId: string;
  status: LivenessStatus;
  instructions: string;
  challenges: Array<Omit<LivenessChallenge, 'completedAt'> & { completedAt: Date | null }>;
  challengesCompleted: number;
  challengesTotal: number;
  referenceSelfieReceived: boolean;
  /** Where the organization's reviewers see the reference selfie (`/files/<id>`); null before it arrives. */
  referenceSelfieUrl: string | null;
  isComplete: boolean;
  nextStep: string | null;
  result: {
    isAlive: boolean;
    confidence: number | null;
    antiSpoofScore: number | null;
    faceMatchScore: number | null;
    failureReason: string | null;
  } | null;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

export const REFERENCE_STEP = 'Upload a reference selfie: your face alone, looking straight at the camera';

/** What the user should send next; null once the session is over. */
export function nextStepOf(s: Pick<LivenessSession, 'status' | 'challenges' | 'reference'>): string | null {
  if (s.status !== 'IN_PROGRESS') return null;
  // a nod under way first: its second photo belongs right after the first
  const started = s.challenges.find((c) => c.outcome === 'PENDING' && c.framesReceived > 0);
  const pending = started ?? (s.reference ? s.challenges.find((c) => c.outcome === 'PENDING') : undefined);
  if (!pending) return REFERENCE_STEP;
  const photo = pending.framesRequired > 1 ? `, photo ${pending.framesReceived + 1} of ${pending.framesRequired}` : '';
  return `Challenge ${pending.id} (${pending.type}${photo}): ${pending.instruction}`;
}

export function livenessRecord(s: LivenessSession): LivenessRecord {
  const completed = s.challenges.filter((c) => c.outcome !== 'PENDING').length;
  return {
    id: s.id,
    userId: s.userId,
    status: s.status,
    instructions: sessionInstructions(s.challenges.map((c) => c.type)),
    challenges: s.challenges.map((c) => ({ ...c, completedAt: c.completedAt ? new Date(c.completedAt) : null })),
    challengesCompleted: completed,
    challengesTotal: s.challenges.length,
    referenceSelfieReceived: Boolean(s.reference),
    referenceSelfieUrl: s.reference ? fileUrl(s.reference.fileId) : null,
    isComplete: s.status !== 'IN_PROGRESS',
    nextStep: nextStepOf(s),
    result:
      s.isAlive == null
        ? null
        : {
            isAlive: s.isAlive,
            confidence: s.confidence ?? null,
            antiSpoofScore: s.antiSpoofScore ?? null,
            faceMatchScore: s.faceMatchScore ?? null,
            failureReason: s.failureReason ?? null,
          },
    expiresAt: s.expiresAt,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    completedAt: s.completedAt ?? null,
  };
}
