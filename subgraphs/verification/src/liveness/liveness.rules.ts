import { randomInt } from 'node:crypto';
import { invalid } from '../../../../platform/errors.js';
import type { FaceAnalysis, VisionAnalysis } from '../vision/vision.types.js';

/**
 * How a liveness session is judged: pure functions over what the face models read in each photo.
 *
 * Direction: photos are judged as the camera captured them, NOT mirrored (what getUserMedia frames
 * and most phone cameras save; a selfie preview is mirrored only on screen). A head turned to the
 * user's own left then shows with a NEGATIVE yaw (the face points to the image's right). An app
 * that mirrors its frames must un-mirror them before sending, or every turn reads the other way.
 *
 * Every check maps its measure onto a 0–1 score with `scoreOf`: 0.5 exactly at the threshold, 1 at
 * a clear reading ("full"), so a check passes when its score is at least 0.5 and the session's
 * confidence is how far its weakest check is from the threshold.
 *
 * How the thresholds were chosen (measured with the models this service runs): challenges are
 * judged as changes from the user's own reference selfie, calibrated by bench/liveness.bench.ts on
 * the `tune` half of its faces (the 6 × 18 thumbnail grid of Human's screenshot-facematch.jpg and
 * the faces of face-api's group photos, each a reference selfie; the movements rendered from its
 * mesh: a closed-lip smile, closed eyes, turns, a raised or lowered head; the negatives the same
 * photo taken again, still): 130 subjects, of them 76 in synthetic darker tones. Figures below are
 * that half's; BENCHMARKS.md has the `report` half's, per skin-tone group. Checked since on real
 * photos nothing was tuned on (the London Set: 102 people, a neutral and a smiling photo each;
 * LIVENESS_BENCH_PHOTOS): SMILE passes 98 % of genuine smiles and no neutral photo, black people's
 * faint closed-lip smiles 84.6 %.
 */

export const CHALLENGE_TYPES = ['TURN_LEFT', 'TURN_RIGHT', 'LOOK_UP', 'SMILE', 'BLINK', 'NOD'] as const;
export type ChallengeType = (typeof CHALLENGE_TYPES)[number];

/** What the user is asked to do, per challenge. NOD takes two photos, sent one after the other with the same challengeId. */
export const CHALLENGE_INSTRUCTIONS: Record<ChallengeType, string> = {
  TURN_LEFT: 'Turn your head to your left',
  TURN_RIGHT: 'Turn your head to your right',
  LOOK_UP: 'Raise your chin and look up',
  // a broad smile: faint closed-lip smiles are what SMILE misses (BENCHMARKS.md, real photos)
  SMILE: 'Smile broadly, showing your teeth',
  BLINK: 'Close both eyes',
  NOD: 'Nod: send a photo with your chin down, then a second one with your chin up',
};

export const FRAMES_REQUIRED: Record<ChallengeType, number> = {
  TURN_LEFT: 1,
  TURN_RIGHT: 1,
  LOOK_UP: 1,
  SMILE: 1,
  BLINK: 1,
  NOD: 2,
};

/** The spec's "2 to 3 random challenges". */
export const MIN_CHALLENGES = 2;
export const MAX_CHALLENGES = 3;

/**
 * Thresholds: `pass` is where a check starts passing, `full` where its score reaches 1. Angles in
 * radians (0.1 rad ≈ 5.7°).
 */
export const LIVENESS_RULES = {
  /**
   * A turn: yaw toward the asked side, from the reference's, of at least 0.15 rad (8.6°). The
   * same face taken again still moves by at most 0.075 (95th percentile 0.04); rendered turns read
   * 0.13–0.49 (median 0.26); the sample portrait turned to her left moves −0.19 → −0.41.
   */
  turn: { pass: 0.15, full: 0.35 },
  /** Looking up: pitch 0.10 rad (5.7°) upward from the reference's. Still faces: 95th percentile 0.05, one 0.15; rendered: median 0.17. */
  lookUp: { pass: 0.1, full: 0.3 },
  /** A nod: the pitch of its two photos at least 0.20 rad (11.5°) apart: its own reference. Still faces move 0.05 (95th percentile). */
  nod: { pass: 0.2, full: 0.5 },
  /**
   * A smile: `smileChange` from the reference at least 0.045: the mouth 4.5 % wider, or its corners
   * raised (by 2 % of the face's height per 4 %), the emotion model's rise counting for little
   * (0.02 per unit: on these photos it moves by ±0.5 between two still photos of one face, and a
   * genuine smile often leaves it at 0). The mouth is read three times per photo (vision.worker.ts:
   * the photo, and its face's crop enlarged so the face is 288 px wide, mesh-views.ts, once with
   * contrast equalised, once mirrored) and averaged: a still face's change then stays below 0.046
   * in 95 % of photos (max 0.097; one pass: 0.066, max 0.14), while the weakest 5 % of rendered
   * smiles read up to 0.048 (0.029 with the crops not enlarged: the mesh follows a subtle smile
   * better in them). On the tune half it passes 98 % of rendered smiles of original tones and 92 %
   * of darker renderings (88 % with the crops not enlarged),
   * fails 93 % / 95 % of still faces; other weights and thresholds (widening alone, lift 0–3,
   * happy 0–0.05, 0.025–0.06; the mouth's width over the outer eye corners' or the jaw's; the
   * median of up to eleven looks) trade one for the other, none reaching 95 % both ways: the two
   * distributions overlap (a subtle rendered smile moves the mesh's mouth by 2–3 %, a still face's
   * by ±5 %).
   */
  smile: { pass: 0.045, full: 0.15, liftWeight: 2, happyWeight: 0.02 },
  /**
   * Eyes closed: the eyes' aspect ratio (the mesh's lids, averaged as the mouth) at most 0.88 of
   * the reference's. Still faces: lowest 0.86, 3rd percentile 0.90; rendered closed lids (the
   * upper lid drawn down to a lash line) median 0.78: on faces of 100–160 px the mesh keeps about
   * three quarters of an eye's opening when its lids close, so the margin is small (with the
   * enlarged crops: 80 % of original-tone and 68 % of darker closed eyes pass on the tune half, 98 % /
   * 99 % of still faces fail; 0.90 passed one more face each, 0.91 let 5 % of darker still faces
   * through: kept at 0.88). Readings stored
   * before the aspect ratio (Human's lid gap over eye height) are judged on the same ratio.
   */
  blink: { pass: 0.88, full: 0.55 },
  /**
   * Anti-spoofing: the mean of the model's `real` over the session's photos at least 0.35. On the
   * gallery (genuine photos) single faces read median 0.56, 5th percentile 0.31, lowest 0.24; the
   * samples 0.55–0.74. A mean over 3–5 photos of one live person stays far above 0.35, while a
   * print or screen replayed to the camera reads low on every photo.
   */
  antiSpoof: { pass: 0.35, full: 0.7 },
  /**
   * One person throughout: every challenge photo against the reference selfie, on the API's
   * calibrated 0–1 face-match scale (face-match.ts), at least 0.60. Two different people (the two
   * sample portraits) score below 0.1; the same woman in the poses of test/support/poses.ts,
   * heavily distorted to fake them, 0.80–1.0.
   */
  faceMatch: { pass: 0.6, full: 0.95 },
  /** The reference selfie faces the camera: |yaw| and |pitch| at most 0.30 / 0.35 rad (17° / 20°). */
  frontal: { maxYaw: 0.3, maxPitch: 0.35 },
  /** Faces narrower than this (pixels) are too small to describe reliably. */
  minFaceWidth: 64,
} as const;

/**
 * What a challenge is judged against before the reference selfie arrives: a face at rest looking
 * at the camera (the bench's reference selfies the emotion model reads as not smiling: medians).
 */
export const TYPICAL_FACE: FaceReading = {
  yaw: 0,
  pitch: 0.1,
  eyeOpenness: 0.33,
  smile: 0,
  mouthWidth: 0.37,
  mouthCornerLift: 0.02,
  antiSpoof: null,
};

/** 0.5 at `pass`, 1 at `full` (and beyond), 0 as far below `pass` as `full` is above; works for falling measures too (`full` < `pass`). */
export function scoreOf(value: number, { pass, full }: { pass: number; full: number }): number {
  return Math.min(1, Math.max(0, 0.5 + (0.5 * (value - pass)) / (full - pass)));
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

/** The numbers of one photo the judgments use. */
export interface FaceReading {
  /** Radians; negative = turned to the user's own left (unmirrored photo). */
  yaw: number;
  /** Radians; negative = looking up. */
  pitch: number;
  /** Both eyes' opening: the mesh's eye aspect ratio (`FaceAnalysis.eyeAspect`; readings stored before it, Human's lid gap over eye height). */
  eyeOpenness: number;
  /** The emotion model's `happy`, 0–1 (0 when it names no smile). */
  smile: number;
  /** Mouth width over face width, from the mesh; null without a mesh (and in readings stored before it was measured). */
  mouthWidth?: number | null;
  /** Mouth corners' height above the lips' middle over face height, from the mesh; null as mouthWidth. */
  mouthCornerLift?: number | null;
  /** Anti-spoofing `real`, 0–1; null when the model gave none. */
  antiSpoof: number | null;
}

export function readingOf(face: FaceAnalysis): FaceReading {
  return {
    yaw: round(face.yaw),
    pitch: round(face.pitch),
    eyeOpenness: round(face.eyeAspect ?? (face.eyesOpen.left + face.eyesOpen.right) / 2),
    smile: round(face.emotion.happy ?? 0),
    mouthWidth: face.mouth ? round(face.mouth.width) : null,
    mouthCornerLift: face.mouth ? round(face.mouth.cornerLift) : null,
    antiSpoof: face.real === null ? null : round(face.real),
  };
}

/** The reference's values a challenge was judged against, as shown to the client. */
export interface ReferenceMeasures {
  headYaw?: number;
  headPitch?: number;
  smile?: number;
  eyeOpenness?: number;
  mouthWidth?: number | null;
  mouthCornerLift?: number | null;
}

/** What a challenge's photos showed, as shown to the client. */
export interface ChallengeMeasures extends ReferenceMeasures {
  pitchChange?: number;
  /** What the reference selfie showed of the same measures; null when judged before it arrived (against TYPICAL_FACE). */
  reference?: ReferenceMeasures | null;
}

export interface ChallengeJudgment {
  passed: boolean;
  score: number;
  measured: ChallengeMeasures;
}

/** The measures of a smile, as `measured` and the reference show them. */
const mouthOf = (r: FaceReading): ReferenceMeasures => ({
  smile: r.smile,
  mouthWidth: r.mouthWidth ?? null,
  mouthCornerLift: r.mouthCornerLift ?? null,
});

/**
 * How much more a face smiles than its reference, one number (`LIVENESS_RULES.smile`): the mouth's
 * relative widening, plus its corners' rise weighted by `liftWeight`, plus the emotion model's
 * rise in `happy` weighted by `happyWeight`. Without the mesh's mouth on either photo (a reading
 * stored before it was measured), the emotion model alone: a rise of 0.5 in `happy` reaches `pass`.
 */
export function smileChange(challenge: FaceReading, reference: FaceReading): number {
  const { pass, liftWeight, happyWeight } = LIVENESS_RULES.smile;
  const happy = challenge.smile - reference.smile;
  if (challenge.mouthWidth == null || !reference.mouthWidth || challenge.mouthCornerLift == null || reference.mouthCornerLift == null)
    return (happy * pass) / 0.5;
  const widening = challenge.mouthWidth / reference.mouthWidth - 1;
  return widening + liftWeight * (challenge.mouthCornerLift - reference.mouthCornerLift) + happyWeight * happy;
}

/**
 * Whether the photos of one challenge (all of its frames) show the asked movement: a change from
 * the reference selfie (the user's own face, still), so a face that reads "happy" or "squinting"
 * at rest neither passes nor fails for it. Before the reference arrives a challenge is judged
 * against TYPICAL_FACE; the service judges it again once the reference is in.
 */
export function judgeChallenge(type: ChallengeType, frames: readonly FaceReading[], reference: FaceReading | null): ChallengeJudgment {
  if (frames.length !== FRAMES_REQUIRED[type])
    throw new Error(`${type} is judged on ${FRAMES_REQUIRED[type]} photos, got ${frames.length}`);
  const [first, second] = frames;
  const base = reference ?? TYPICAL_FACE;
  const judged = (
    value: number,
    rule: { pass: number; full: number },
    measured: ReferenceMeasures & { pitchChange?: number },
    shown: ReferenceMeasures,
  ): ChallengeJudgment => {
    const score = round(scoreOf(value, rule));
    return { passed: score >= 0.5, score, measured: { ...measured, reference: reference ? shown : null } };
  };
  switch (type) {
    case 'TURN_LEFT':
      return judged(base.yaw - first.yaw, LIVENESS_RULES.turn, { headYaw: first.yaw }, { headYaw: base.yaw });
    case 'TURN_RIGHT':
      return judged(first.yaw - base.yaw, LIVENESS_RULES.turn, { headYaw: first.yaw }, { headYaw: base.yaw });
    case 'LOOK_UP':
      return judged(base.pitch - first.pitch, LIVENESS_RULES.lookUp, { headPitch: first.pitch }, { headPitch: base.pitch });
    case 'SMILE':
      return judged(smileChange(first, base), LIVENESS_RULES.smile, mouthOf(first), mouthOf(base));
    case 'BLINK':
      return judged(
        base.eyeOpenness > 0 ? first.eyeOpenness / base.eyeOpenness : 1,
        LIVENESS_RULES.blink,
        { eyeOpenness: first.eyeOpenness },
        { eyeOpenness: base.eyeOpenness },
      );
    case 'NOD': {
      // a nod is its own reference: the pitch of its two photos
      const change = round(Math.abs(second.pitch - first.pitch));
      return judged(change, LIVENESS_RULES.nod, { headPitch: first.pitch, pitchChange: change }, { headPitch: base.pitch });
    }
  }
}

export const FAILURE_REASONS = {
  SPOOF_SUSPECTED: 'SPOOF_SUSPECTED',
  FACE_MISMATCH: 'FACE_MISMATCH',
  SESSION_EXPIRED: 'SESSION_EXPIRED',
  challengeFailed: (type: ChallengeType) => `CHALLENGE_FAILED:${type}`,
} as const;

export interface SessionEvidence {
  /** Every challenge, judged, in the session's order. */
  challenges: ReadonlyArray<{ type: ChallengeType; passed: boolean; score: number }>;
  /** Anti-spoofing of every photo (reference and challenge frames). */
  antiSpoof: ReadonlyArray<number | null>;
  /** Face match of every challenge frame against the reference selfie (API 0–1 scale). */
  faceMatch: readonly number[];
}

export interface LivenessVerdict {
  isAlive: boolean;
  /** How sure the verdict is, 0.5–1: how far the weakest check is from its threshold. */
  confidence: number;
  antiSpoofScore: number | null;
  faceMatchScore: number | null;
  /** The first failed check: SPOOF_SUSPECTED, then FACE_MISMATCH, then CHALLENGE_FAILED:<type>; null when alive. */
  failureReason: string | null;
}

/** The session's verdict once every challenge is judged and the reference selfie is in. */
export function decide(evidence: SessionEvidence): LivenessVerdict {
  const spoofReadings = evidence.antiSpoof.filter((v): v is number => v !== null);
  const antiSpoofScore = spoofReadings.length ? round(spoofReadings.reduce((a, b) => a + b, 0) / spoofReadings.length) : null;
  const faceMatchScore = evidence.faceMatch.length ? Math.min(...evidence.faceMatch) : null;
  // a photo the model could not judge counts as failing: the check never passes by default
  const spoof = antiSpoofScore === null ? 0 : scoreOf(antiSpoofScore, LIVENESS_RULES.antiSpoof);
  const match = faceMatchScore === null ? 0 : scoreOf(faceMatchScore, LIVENESS_RULES.faceMatch);
  const failedChallenge = evidence.challenges.find((c) => !c.passed);
  const failureReason =
    spoof < 0.5
      ? FAILURE_REASONS.SPOOF_SUSPECTED
      : match < 0.5
        ? FAILURE_REASONS.FACE_MISMATCH
        : failedChallenge
          ? FAILURE_REASONS.challengeFailed(failedChallenge.type)
          : null;
  const weakest = Math.min(spoof, match, ...evidence.challenges.map((c) => c.score));
  return {
    isAlive: failureReason === null,
    confidence: round(failureReason === null ? weakest : 1 - weakest),
    antiSpoofScore,
    faceMatchScore,
    failureReason,
  };
}

/**
 * The one face of a photo, or a 422 naming `field` (no face, several, too small): such a photo
 * is refused and may be sent again; it does not count against the session.
 */
export function soleFace(analysis: VisionAnalysis, field: string): FaceAnalysis {
  const { faces } = analysis;
  if (!faces.length) throw invalid(`${field} shows no face: take the photo in good light, your face filling the frame`);
  if (faces.length > 1) throw invalid(`${field} shows ${faces.length} faces: only the user may be in the picture`);
  const width = faces[0].box[2];
  if (width < LIVENESS_RULES.minFaceWidth) {
    throw invalid(`${field} shows the face too small (${Math.round(width)} px wide, at least ${LIVENESS_RULES.minFaceWidth}): come closer`);
  }
  return faces[0];
}

const degrees = (radians: number) => Math.round((Math.abs(radians) * 180) / Math.PI);

/** A reference selfie faces the camera (422 naming `field` otherwise). */
export function requireFrontal(reading: FaceReading, field: string): void {
  const { maxYaw, maxPitch } = LIVENESS_RULES.frontal;
  if (Math.abs(reading.yaw) > maxYaw || Math.abs(reading.pitch) > maxPitch) {
    throw invalid(
      `${field} must face the camera: the head is turned ${degrees(reading.yaw)}° sideways and ${degrees(reading.pitch)}° up or down ` +
        `(at most ${degrees(maxYaw)}° and ${degrees(maxPitch)}°)`,
    );
  }
}

/** 2 to 3 distinct challenge types in random order; `pick(n)` draws an integer below n (crypto by default; seeded in tests). */
export function drawChallengeTypes(pick: (n: number) => number = randomInt): ChallengeType[] {
  const count = MIN_CHALLENGES + pick(MAX_CHALLENGES - MIN_CHALLENGES + 1);
  const pool = [...CHALLENGE_TYPES];
  // a partial Fisher–Yates shuffle: the first `count` of a uniformly random order
  for (let i = 0; i < count; i++) {
    const j = i + pick(pool.length - i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}

/** What the user reads before starting. */
export function sessionInstructions(types: readonly ChallengeType[]): string {
  const steps = types.map((type, i) => `${i + 1}. ${CHALLENGE_INSTRUCTIONS[type]}`).join('; ');
  return (
    'Take a reference selfie looking straight at the camera, then one photo per challenge (two for a nod), ' +
    `with only your face in the picture, in good light: ${steps}.`
  );
}
