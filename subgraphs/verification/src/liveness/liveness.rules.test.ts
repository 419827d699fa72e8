import type { FaceAnalysis, VisionAnalysis } from '../vision/vision.types.js';
import {
  CHALLENGE_TYPES,
  decide,
  drawChallengeTypes,
  judgeChallenge,
  LIVENESS_RULES,
  readingOf,
  requireFrontal,
  scoreOf,
  sessionInstructions,
  smileChange,
  soleFace,
  TYPICAL_FACE,
  type FaceReading,
} from './liveness.rules.js';

const still: FaceReading = { yaw: 0, pitch: 0.1, eyeOpenness: 0.35, smile: 0, mouthWidth: 0.36, mouthCornerLift: 0.02, antiSpoof: 0.6 };
const face = (over: Partial<FaceReading>): FaceReading => ({ ...still, ...over });

describe('liveness rules', () => {
  describe('scores', () => {
    it('are 0.5 at the threshold, 1 at a clear reading, for rising and falling measures', () => {
      const { turn, blink } = LIVENESS_RULES;
      expect(scoreOf(turn.pass, turn)).toBe(0.5);
      expect(scoreOf(turn.full, turn)).toBe(1);
      expect(scoreOf(turn.full + 0.3, turn)).toBe(1);
      expect(scoreOf((turn.pass + turn.full) / 2, turn)).toBeCloseTo(0.75);
      expect(scoreOf(-0.5, turn)).toBe(0);
      // eyes: a lower ratio is more closed
      expect(scoreOf(blink.pass, blink)).toBe(0.5);
      expect(scoreOf(blink.full, blink)).toBe(1);
      expect(scoreOf(1, blink)).toBeLessThan(0.5);
      expect(scoreOf(1.5, blink)).toBe(0);
    });
  });

  describe('challenges, against the reference selfie (happy path)', () => {
    it('a head turned to the user’s left (yaw falling from the reference’s, unmirrored) passes TURN_LEFT and fails TURN_RIGHT, and the mirror image the reverse', () => {
      // the sample portrait: reference −0.19, turned to her left −0.41, mirrored +0.35
      const reference = face({ yaw: -0.19 });
      const left = face({ yaw: -0.41 });
      const right = face({ yaw: 0.35 });
      expect(judgeChallenge('TURN_LEFT', [left], reference)).toEqual({
        passed: true,
        score: expect.any(Number),
        measured: { headYaw: -0.41, reference: { headYaw: -0.19 } },
      });
      expect(judgeChallenge('TURN_RIGHT', [left], reference)).toMatchObject({ passed: false, score: 0 });
      expect(judgeChallenge('TURN_RIGHT', [right], reference)).toMatchObject({ passed: true });
      expect(judgeChallenge('TURN_LEFT', [right], reference)).toMatchObject({ passed: false });
    });

    it('looking up, a smile, closed eyes and a nod pass as changes from the reference', () => {
      expect(judgeChallenge('LOOK_UP', [face({ pitch: -0.21 })], still)).toMatchObject({
        passed: true,
        measured: { headPitch: -0.21, reference: { headPitch: 0.1 } },
      });
      expect(judgeChallenge('BLINK', [face({ eyeOpenness: 0.16 })], still)).toMatchObject({
        passed: true,
        measured: { eyeOpenness: 0.16, reference: { eyeOpenness: 0.35 } },
      });
      expect(judgeChallenge('NOD', [face({ pitch: 0.2 }), face({ pitch: -0.21 })], still)).toMatchObject({
        passed: true,
        measured: { headPitch: 0.2, pitchChange: 0.41 },
      });
      // the sample portrait's rendered smile: the emotion model stays low, the mesh sees the mouth widen and rise
      const smiling = face({ smile: 0.15, mouthWidth: 0.406, mouthCornerLift: 0.048 });
      expect(judgeChallenge('SMILE', [smiling], face({ smile: 0.19, mouthWidth: 0.335, mouthCornerLift: 0.038 }))).toMatchObject({
        passed: true,
        measured: {
          smile: 0.15,
          mouthWidth: 0.406,
          mouthCornerLift: 0.048,
          reference: { smile: 0.19, mouthWidth: 0.335, mouthCornerLift: 0.038 },
        },
      });
    });

    it('a smile is a change from the user’s own face, whatever the face reads at rest', () => {
      // a wide mouth at rest does not smile; a narrow one widened by a fifth does
      const wide = face({ mouthWidth: 0.42, mouthCornerLift: 0.03 });
      expect(judgeChallenge('SMILE', [wide], wide).passed).toBe(false);
      expect(judgeChallenge('SMILE', [face({ mouthWidth: 0.37, mouthCornerLift: 0.03 })], face({ mouthWidth: 0.31 })).passed).toBe(true);
      // a face the emotion model reads as happy at rest: the same reading again is no smile
      const happy = face({ smile: 0.9 });
      expect(judgeChallenge('SMILE', [happy], happy).passed).toBe(false);
      // without the mesh's mouth the emotion model's rise decides: 0.5 reaches the bar
      const unmeasured = { mouthWidth: null, mouthCornerLift: null };
      expect(smileChange(face({ ...unmeasured, smile: 0.6 }), face({ ...unmeasured, smile: 0.1 }))).toBeCloseTo(LIVENESS_RULES.smile.pass);
      expect(judgeChallenge('SMILE', [face({ ...unmeasured, smile: 0.55 })], face(unmeasured)).passed).toBe(true);
      expect(judgeChallenge('SMILE', [face({ ...unmeasured, smile: 0.4 })], face(unmeasured)).passed).toBe(false);
    });

    it('closed eyes are judged against the user’s own open eyes', () => {
      // narrow eyes at rest (0.24): 0.16 is closed for them; for wide ones (0.45) 0.42 is not
      expect(judgeChallenge('BLINK', [face({ eyeOpenness: 0.16 })], face({ eyeOpenness: 0.24 })).passed).toBe(true);
      expect(judgeChallenge('BLINK', [face({ eyeOpenness: 0.42 })], face({ eyeOpenness: 0.45 })).passed).toBe(false);
    });

    it('closed lids as the mesh reads them on a small face pass BLINK: it keeps about three quarters of the opening', () => {
      // the bench's closed lids on a face 130 px wide (mean of the mesh's three looks): 0.328 → 0.262;
      // a still face taken again reads 0.90 of its reference's or more in 97 % of photos
      const reference = face({ eyeOpenness: 0.328 });
      expect(judgeChallenge('BLINK', [face({ eyeOpenness: 0.262 })], reference)).toMatchObject({
        passed: true,
        measured: { eyeOpenness: 0.262, reference: { eyeOpenness: 0.328 } },
      });
      expect(judgeChallenge('BLINK', [face({ eyeOpenness: 0.9 * 0.328 })], reference).passed).toBe(false);
    });

    it('before the reference arrives, a challenge is judged against a typical face, without reference values', () => {
      expect(judgeChallenge('TURN_LEFT', [face({ yaw: -0.41 })], null)).toMatchObject({
        passed: true,
        measured: { headYaw: -0.41, reference: null },
      });
      expect(judgeChallenge('SMILE', [TYPICAL_FACE], null).passed).toBe(false);
    });
  });

  describe('challenges (exit conditions)', () => {
    it('the reference itself, sent again, passes none of them', () => {
      for (const type of CHALLENGE_TYPES) {
        const frames = type === 'NOD' ? [still, still] : [still];
        expect({ type, passed: judgeChallenge(type, frames, still).passed }).toEqual({ type, passed: false });
      }
    });

    it('just below each threshold fails, at it passes', () => {
      const { turn, lookUp, blink, nod } = LIVENESS_RULES;
      const reference = face({ yaw: 0.1, pitch: 0.12, eyeOpenness: 0.4 });
      expect(judgeChallenge('TURN_LEFT', [face({ yaw: 0.1 - turn.pass + 0.001 })], reference).passed).toBe(false);
      expect(judgeChallenge('TURN_LEFT', [face({ yaw: 0.1 - turn.pass })], reference).passed).toBe(true);
      expect(judgeChallenge('TURN_RIGHT', [face({ yaw: 0.1 + turn.pass - 0.001 })], reference).passed).toBe(false);
      expect(judgeChallenge('LOOK_UP', [face({ pitch: 0.12 - lookUp.pass + 0.001 })], reference).passed).toBe(false);
      expect(judgeChallenge('LOOK_UP', [face({ pitch: 0.12 - lookUp.pass })], reference).passed).toBe(true);
      expect(judgeChallenge('BLINK', [face({ eyeOpenness: 0.4 * blink.pass + 0.001 })], reference).passed).toBe(false);
      expect(judgeChallenge('BLINK', [face({ eyeOpenness: 0.4 * blink.pass })], reference).passed).toBe(true);
      expect(judgeChallenge('NOD', [face({ pitch: 0.05 }), face({ pitch: 0.05 - nod.pass + 0.001 })], reference).passed).toBe(false);
      expect(judgeChallenge('NOD', [face({ pitch: -0.1 }), face({ pitch: -0.1 + nod.pass })], reference).passed).toBe(true);
    });

    it('a nod is judged on two photos, the others on one', () => {
      expect(() => judgeChallenge('NOD', [still], still)).toThrow(/2 photos/);
      expect(() => judgeChallenge('SMILE', [still, still], still)).toThrow(/1 photos/);
    });
  });

  describe('the verdict', () => {
    const passed = [
      { type: 'TURN_LEFT' as const, passed: true, score: 0.68 },
      { type: 'NOD' as const, passed: true, score: 0.9 },
    ];

    it('is alive when every check passes, as sure as its weakest check', () => {
      expect(decide({ challenges: passed, antiSpoof: [0.67, 0.66, 0.68], faceMatch: [0.99, 0.81] })).toEqual({
        isAlive: true,
        confidence: 0.68,
        antiSpoofScore: 0.67,
        faceMatchScore: 0.81,
        failureReason: null,
      });
    });

    it('names the first failed check: spoofing, then another face, then the first failed challenge', () => {
      const failed = [{ type: 'TURN_LEFT' as const, passed: false, score: 0 }, ...passed];
      expect(decide({ challenges: failed, antiSpoof: [0.2, 0.3], faceMatch: [0.1] })).toMatchObject({
        isAlive: false,
        failureReason: 'SPOOF_SUSPECTED',
        antiSpoofScore: 0.25,
      });
      expect(decide({ challenges: failed, antiSpoof: [0.6], faceMatch: [0.99, 0.1] })).toMatchObject({ failureReason: 'FACE_MISMATCH' });
      const verdict = decide({ challenges: failed, antiSpoof: [0.6], faceMatch: [0.99] });
      // sure it failed: the failed challenge's score is 0
      expect(verdict).toMatchObject({ isAlive: false, failureReason: 'CHALLENGE_FAILED:TURN_LEFT', confidence: 1 });
    });

    it('treats an unmeasured anti-spoofing score or a missing face match as failing, never as passing', () => {
      expect(decide({ challenges: passed, antiSpoof: [null], faceMatch: [0.9] })).toMatchObject({
        isAlive: false,
        antiSpoofScore: null,
        failureReason: 'SPOOF_SUSPECTED',
      });
      expect(decide({ challenges: passed, antiSpoof: [0.6, null], faceMatch: [] })).toMatchObject({
        isAlive: false,
        antiSpoofScore: 0.6,
        failureReason: 'FACE_MISMATCH',
      });
    });
  });

  describe('photos (errors)', () => {
    const analysed = (...faces: Array<Partial<FaceAnalysis>>): VisionAnalysis => ({
      image: { width: 320, height: 320, sharpness: 50, brightness: 100 },
      faces: faces.map((f) => ({
        box: [10, 10, 120, 120],
        score: 1,
        embedding: [],
        yaw: 0,
        pitch: 0,
        roll: 0,
        facing: 'center',
        eyesOpen: { left: 0.3, right: 0.4 },
        mouthOpen: 0,
        mouth: { width: 0.381234, cornerLift: 0.0312345 },
        landmarks: null,
        emotion: { happy: 0.7 },
        real: 0.6,
        live: 1,
        ...f,
      })),
    });

    it('must show exactly one face, big enough (422 naming the field)', () => {
      expect(() => soleFace(analysed(), 'photo')).toThrow(
        expect.objectContaining({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/^photo shows no face/) }),
      );
      expect(() => soleFace(analysed({}, {}), 'selfie')).toThrow('selfie shows 2 faces: only the user may be in the picture');
      expect(() => soleFace(analysed({ box: [0, 0, 40, 40] }), 'photo')).toThrow(/^photo shows the face too small \(40 px wide/);
      expect(readingOf(soleFace(analysed({ yaw: -0.123456 }), 'photo'))).toEqual({
        yaw: -0.1235,
        pitch: 0,
        eyeOpenness: 0.35,
        smile: 0.7,
        mouthWidth: 0.3812,
        mouthCornerLift: 0.0312,
        antiSpoof: 0.6,
      });
      // with the mesh's eye aspect ratio, the eyes' opening is that ratio (Human's lid gap only for readings without it)
      expect(readingOf(soleFace(analysed({ eyeAspect: 0.312345 }), 'photo')).eyeOpenness).toBe(0.3123);
    });

    it('a reference selfie faces the camera', () => {
      expect(() => requireFrontal(face({ yaw: 0.29, pitch: -0.34 }), 'selfie')).not.toThrow();
      expect(() => requireFrontal(face({ yaw: -0.41 }), 'selfie')).toThrow(
        'selfie must face the camera: the head is turned 23° sideways and 6° up or down (at most 17° and 20°)',
      );
      expect(() => requireFrontal(face({ pitch: 0.5 }), 'selfie')).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    });
  });

  describe('drawing challenges', () => {
    it('draws 2 or 3 distinct types from the injected randomness', () => {
      // always the first choice: two challenges, the first types in order
      expect(drawChallengeTypes(() => 0)).toEqual(['TURN_LEFT', 'TURN_RIGHT']);
      // always the last choice: three challenges, each swapped with the pool's end
      expect(drawChallengeTypes((n) => n - 1)).toEqual(['NOD', 'TURN_LEFT', 'TURN_RIGHT']);
    });

    it('covers every type and both sizes with real randomness, never repeating a type', () => {
      const seen = new Set<string>();
      const sizes = new Set<number>();
      for (let i = 0; i < 500; i++) {
        const types = drawChallengeTypes();
        expect(new Set(types).size).toBe(types.length);
        sizes.add(types.length);
        types.forEach((t) => seen.add(t));
      }
      expect([...sizes].sort()).toEqual([2, 3]);
      expect([...seen].sort()).toEqual([...CHALLENGE_TYPES].sort());
    });

    it('tells the user the steps in order, a nod with its two photos', () => {
      expect(sessionInstructions(['SMILE', 'NOD'])).toMatch(
        /1\. Smile broadly, showing your teeth; 2\. Nod: send a photo with your chin down, then a second one with your chin up\.$/,
      );
    });
  });
});
