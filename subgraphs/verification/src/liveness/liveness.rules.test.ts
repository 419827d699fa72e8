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
  soleFace,
  type FaceReading,
} from './liveness.rules.js';

const still: FaceReading = { yaw: 0, pitch: 0.1, eyeOpenness: 0.35, smile: 0, antiSpoof: 0.6 };
const face = (over: Partial<FaceReading>): FaceReading => ({ ...still, ...over });

describe('liveness rules', () => {
  describe('scores', () => {
    it('are 0.5 at the threshold, 1 at a clear reading, for rising and falling measures', () => {
      expect(scoreOf(0.3, LIVENESS_RULES.turn)).toBe(0.5);
      expect(scoreOf(0.6, LIVENESS_RULES.turn)).toBe(1);
      expect(scoreOf(0.9, LIVENESS_RULES.turn)).toBe(1);
      expect(scoreOf(0.45, LIVENESS_RULES.turn)).toBeCloseTo(0.75);
      expect(scoreOf(-0.5, LIVENESS_RULES.turn)).toBe(0);
      // eyes: lower is more closed
      expect(scoreOf(0.2, LIVENESS_RULES.blink)).toBe(0.5);
      expect(scoreOf(0.1, LIVENESS_RULES.blink)).toBe(1);
      expect(scoreOf(0.35, LIVENESS_RULES.blink)).toBe(0);
    });
  });

  describe('challenges (happy path)', () => {
    it('a head turned to the user’s left (negative yaw, unmirrored) passes TURN_LEFT and fails TURN_RIGHT, and the mirror image the reverse', () => {
      const left = face({ yaw: -0.41 });
      const right = face({ yaw: 0.35 });
      expect(judgeChallenge('TURN_LEFT', [left])).toEqual({ passed: true, score: 0.6833, measured: { headYaw: -0.41 } });
      expect(judgeChallenge('TURN_RIGHT', [left])).toMatchObject({ passed: false, score: 0 });
      expect(judgeChallenge('TURN_RIGHT', [right])).toMatchObject({ passed: true });
      expect(judgeChallenge('TURN_LEFT', [right])).toMatchObject({ passed: false });
    });

    it('looking up, a smile, closed eyes and a nod pass on their own measure', () => {
      expect(judgeChallenge('LOOK_UP', [face({ pitch: -0.21 })])).toMatchObject({ passed: true, measured: { headPitch: -0.21 } });
      expect(judgeChallenge('SMILE', [face({ smile: 0.55 })])).toMatchObject({ passed: true, measured: { smile: 0.55 } });
      expect(judgeChallenge('BLINK', [face({ eyeOpenness: 0.16 })])).toMatchObject({ passed: true, score: 0.7 });
      expect(judgeChallenge('NOD', [face({ pitch: 0.2 }), face({ pitch: -0.21 })])).toMatchObject({
        passed: true,
        measured: { headPitch: 0.2, pitchChange: 0.41 },
      });
    });
  });

  describe('challenges (exit conditions)', () => {
    it('a still face passes none of them', () => {
      for (const type of CHALLENGE_TYPES) {
        const frames = type === 'NOD' ? [still, still] : [still];
        expect({ type, passed: judgeChallenge(type, frames).passed }).toEqual({ type, passed: false });
      }
    });

    it('just below each threshold fails, at it passes', () => {
      expect(judgeChallenge('TURN_LEFT', [face({ yaw: -0.2999 })]).passed).toBe(false);
      expect(judgeChallenge('TURN_LEFT', [face({ yaw: -0.3 })]).passed).toBe(true);
      expect(judgeChallenge('LOOK_UP', [face({ pitch: -0.149 })]).passed).toBe(false);
      expect(judgeChallenge('SMILE', [face({ smile: 0.499 })]).passed).toBe(false);
      expect(judgeChallenge('BLINK', [face({ eyeOpenness: 0.201 })]).passed).toBe(false);
      expect(judgeChallenge('NOD', [face({ pitch: 0.05 }), face({ pitch: -0.149 })]).passed).toBe(false);
      expect(judgeChallenge('NOD', [face({ pitch: -0.1 }), face({ pitch: 0.1 })]).passed).toBe(true);
    });

    it('a nod is judged on two photos, the others on one', () => {
      expect(() => judgeChallenge('NOD', [still])).toThrow(/2 photos/);
      expect(() => judgeChallenge('SMILE', [still, still])).toThrow(/1 photos/);
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
        antiSpoof: 0.6,
      });
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
        /1\. Smile; 2\. Nod: send a photo with your chin down, then a second one with your chin up\.$/,
      );
    });
  });
});
