import { decodeCohort, encodeCohortFace, faceCohort, installedFaceModel, readFaceCohortFile } from './face-cohort.js';
import { adjustedCosine, CROWDING, faceSimilarity } from './face-match.js';
import { rng } from '../../../../test/support/random.js';

describe('face cohort (data/face-cohort.json)', () => {
  it('was made by the installed face model, of lighter photos and their darker renderings', () => {
    // another model's descriptions would measure nothing: remake the cohort when Human changes (bench/README.md)
    expect(readFaceCohortFile().model).toBe(installedFaceModel());
    const { darker, lighter } = faceCohort();
    expect(lighter.length).toBeGreaterThanOrEqual(CROWDING.neighbours);
    expect(darker.length).toBeGreaterThanOrEqual(CROWDING.neighbours);
    for (const face of [...darker, ...lighter]) expect(face).toHaveLength(1024);
  });

  it('keeps a description in a byte per number without moving its cosines, and sorts lighter from darker', () => {
    const random = rng(3);
    // like the model's descriptions: non-negative, many zeros
    const faces = Array.from({ length: 3 }, () => Array.from({ length: 1024 }, () => Math.max(0, random() - 0.3) * 4));
    const cohort = decodeCohort({
      about: '',
      model: installedFaceModel(),
      faces: faces.map((f, i) => encodeCohortFace(`face ${i}`, i > 0, f)),
    });
    expect(cohort.lighter).toHaveLength(1);
    expect(cohort.darker).toHaveLength(2);
    [cohort.lighter[0], ...cohort.darker].forEach((decoded, i) => {
      expect(faceSimilarity(decoded, faces[i])).toBeGreaterThan(0.999);
      expect(faceSimilarity(decoded, decoded)).toBeCloseTo(1, 6);
    });
  });
});

describe('crowding-adjusted cosine', () => {
  it('lowers the cosine of faces nearer the darker photos, and leaves the others’ as it was', () => {
    expect(adjustedCosine(0.7, 0.1, 0.1)).toBeCloseTo(0.7 - CROWDING.weight * 0.1, 9);
    expect(adjustedCosine(0.7, 0.1, -0.1)).toBe(0.7);
    expect(adjustedCosine(0.7, -0.05, -0.02)).toBe(0.7);
    for (const [a, b] of [
      [0.2, 0],
      [0.05, -0.03],
      [-0.2, 0.3],
    ])
      expect(adjustedCosine(0.5, a, b)).toBeLessThanOrEqual(0.5);
  });
});
