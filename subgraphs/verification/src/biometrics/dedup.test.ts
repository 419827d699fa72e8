import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import { openOrm, type Orm } from '../../../../platform/db/orm.js';
import { Keyring } from '../../../../platform/crypto/keyring.js';
import { LocalKeyProvider } from '../../../../platform/crypto/key-provider.js';
import { createTestDatabase, eventually } from '../../../../test/support/database.js';
import { noFace } from '../../../../test/support/faces.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { adjustedCosine, cosineOfScore, faceCrowding, scoreOfCosine } from '../vision/face-match.js';
import type { VisionAnalysis } from '../vision/vision.types.js';
import { BiometricDedupCheck } from './dedup.entity.js';
import { DedupService } from './dedup.service.js';
import { FaceGalleries } from './enrollment.store.js';
import { FaceGallery, vectorBytes, vectorOfBytes } from './face-gallery.js';
import { FACE_DIMENSIONS, normalizedFace } from '../vision/face-vectors.js';
import { rng } from '../../../../test/support/random.js';
import { PLATFORM_ENTITIES } from '../../../../platform/entities.js';

/** A face description of someone (two people's are nearly orthogonal). */
function randomFace(random: () => number): number[] {
  return Array.from({ length: FACE_DIMENSIONS }, () => random() - 0.5);
}

/** The same face slightly changed (another photo of it). */
function nearby(face: number[], random: () => number, noise = 0.05): number[] {
  return face.map((x) => x + (random() - 0.5) * noise);
}

describe('face score mapping', () => {
  it('is increasing, between 0 and 1, and cosineOfScore undoes scoreOfCosine', () => {
    let previous = -Infinity;
    for (let cosine = -1; cosine <= 1; cosine += 0.01) {
      const score = scoreOfCosine(cosine);
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
      expect(score).toBeGreaterThanOrEqual(previous);
      previous = score;
    }
    for (const score of [0.01, 0.3, 0.5, 0.9, 0.95, 0.99]) expect(scoreOfCosine(cosineOfScore(score))).toBeCloseTo(score, 9);
    // the calibration: the spec's default 0.90 stands for a cosine above every measured pair of two people (0.616)
    expect(cosineOfScore(0.9)).toBeCloseTo(0.65, 2);
  });
});

describe('face gallery (in-process exact search)', () => {
  it('finds exactly what comparing with every face finds, on the crowding-adjusted cosine, most similar first', () => {
    const random = rng(7);
    const gallery = new FaceGallery();
    const faces = Array.from({ length: 3000 }, (_, i) => ({
      userId: `u${i}`,
      vector: normalizedFace(randomFace(random)),
      crowding: random() * 0.2 - 0.05,
    }));
    faces.forEach((f, i) => gallery.add({ seq: i + 1, enrolledAt: new Date(0), ...f }));
    expect(gallery.size).toBe(3000);
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
    for (let q = 0; q < 5; q++) {
      const query = { vector: normalizedFace(randomFace(random)), crowding: q * 0.03 - 0.03 };
      const all = faces
        .map((f) => ({ userId: f.userId, cosine: adjustedCosine(dot(f.vector, query.vector), query.crowding, f.crowding) }))
        .sort((a, b) => b.cosine - a.cosine);
      // between two faces' cosines: float32 sums may differ from these in the 7th decimal
      const minCosine = (all[40].cosine + all[41].cosine) / 2;
      const expected = all.filter((f) => f.cosine >= minCosine && f.userId !== 'u3');
      const found = gallery.search(query, minCosine, 'u3', 1000);
      expect(found.map((h) => h.userId)).toEqual(expected.map((f) => f.userId));
      found.forEach((h, i) => expect(h.cosine).toBeCloseTo(expected[i].cosine, 5));
      expect(gallery.search(query, minCosine, null, 10)).toHaveLength(10);
    }
  });

  it('stores vectors as float32 bytes without loss, and normalizes them', () => {
    const vector = normalizedFace(randomFace(rng(1)));
    expect(vectorOfBytes(vectorBytes(vector))).toEqual(vector);
    expect(vector.reduce((s, x) => s + x * x, 0)).toBeCloseTo(1, 5);
    expect(() => normalizedFace([1, 2, 3])).toThrow(/1024/);
  });
});

describe('dedup checks on PostgreSQL', () => {
  let orm: Orm;
  let other: Orm;
  let admin: pg.Pool;
  let keyring: Keyring;
  const tenant: Tenant = { organizationId: randomUUID(), environment: 'live' };
  const random = rng(42);
  const alice = randomFace(random);
  const bob = randomFace(random);
  /** A stub of the model that sees these faces in any selfie. */
  const seeing = (faces: number[][]) => ({
    analyze: async (): Promise<VisionAnalysis> => ({
      image: { width: 320, height: 320, sharpness: 500, brightness: 120 },
      faces: faces.map((embedding) => ({
        box: [0, 0, 100, 100],
        score: 1,
        embedding,
        yaw: 0,
        pitch: 0,
        roll: 0,
        facing: 'center',
        eyesOpen: { left: 1, right: 1 },
        mouthOpen: 0,
        mouth: null,
        landmarks: null,
        emotion: {},
        real: 1,
        live: 1,
      })),
    }),
  });
  let selfie: string;

  beforeAll(async () => {
    const url = await createTestDatabase();
    admin = new pg.Pool({ connectionString: url, max: 2 });
    // enrolled faces are sealed with the organization's data key
    keyring = new Keyring(admin, new LocalKeyProvider(randomBytes(32)));
    orm = await openOrm({ url, entities: [...PLATFORM_ENTITIES, BiometricDedupCheck], keyring });
    other = await openOrm({ url, entities: [...PLATFORM_ENTITIES, BiometricDedupCheck], keyring });
    selfie = (await noFace()).toString('base64');
  });
  afterAll(async () => {
    await orm?.close();
    await other?.close();
    await admin?.end();
  });

  /** A check as one process (its own ORM and galleries) makes it. */
  const checkIn = (process: { orm: Orm; galleries: FaceGalleries }, userId: string, face: number[], more: object = {}) => {
    const vision = seeing([face]);
    return new DedupService(process.orm.em.fork() as EntityManager, tenant, { vision, galleries: process.galleries }).check({
      userId,
      selfieBase64: selfie,
      ...more,
    });
  };

  it('sees what another process enrolled or erased (catch-up by seq, reload after a removal)', async () => {
    const one = { orm, galleries: new FaceGalleries(keyring) };
    const two = { orm: other, galleries: new FaceGalleries(keyring) };
    expect(await checkIn(one, 'alice', alice)).toMatchObject({ status: 'UNIQUE', enrolled: true });
    // process two loads its gallery now, with alice in it
    expect(await checkIn(two, 'bob', bob)).toMatchObject({ status: 'UNIQUE', enrolled: true });
    const seen = await checkIn(one, 'bob-again', nearby(bob, random));
    expect(seen).toMatchObject({ status: 'DUPLICATE', enrolled: false, matches: [expect.objectContaining({ matchedUserId: 'bob' })] });
    expect(seen.matches[0].similarity).toBeGreaterThanOrEqual(0.9);

    const service = new DedupService(orm.em.fork() as EntityManager, tenant, { vision: seeing([]), galleries: one.galleries });
    expect(await service.deleteEnrollment('bob')).toMatchObject({ userId: 'bob' });
    // process two held bob in memory: the removal makes it reload
    expect(await checkIn(two, 'bob-third', nearby(bob, random))).toMatchObject({ status: 'UNIQUE', enrolled: true });
    expect(await checkIn(two, 'alice-again', nearby(alice, random))).toMatchObject({
      status: 'DUPLICATE',
      matches: [expect.objectContaining({ matchedUserId: 'alice' })],
    });
  });

  it('measures, once, the crowding of a face enrolled before crowding was kept', async () => {
    const dave = randomFace(random);
    const one = { orm, galleries: new FaceGalleries(keyring) };
    expect(await checkIn(one, 'dave', dave)).toMatchObject({ status: 'UNIQUE', enrolled: true });
    const crowdingOf = async () =>
      (await admin.query<{ crowding: number | null }>(`select crowding from verification.biometric_enrollments where user_id = 'dave'`))
        .rows[0].crowding;
    const kept = await crowdingOf();
    expect(kept).toBeCloseTo(faceCrowding(normalizedFace(dave)), 5);
    await admin.query(`update verification.biometric_enrollments set crowding = null where user_id = 'dave'`);
    // a process that loads the gallery now finds the face without it, measures it and keeps it
    expect(await checkIn({ orm: other, galleries: new FaceGalleries(keyring) }, 'dave-again', nearby(dave, random))).toMatchObject({
      status: 'DUPLICATE',
      matches: [expect.objectContaining({ matchedUserId: 'dave' })],
    });
    expect(await crowdingOf()).toBeCloseTo(kept!, 5);
  });

  it('treats an image without exactly one face as an ERROR check and enrols nothing', async () => {
    const service = (faces: number[][]) =>
      new DedupService(orm.em.fork() as EntityManager, tenant, { vision: seeing(faces), galleries: new FaceGalleries(keyring) });
    expect(await service([]).check({ userId: 'nobody', selfieBase64: selfie })).toMatchObject({
      status: 'ERROR',
      enrolled: false,
      errorReason: 'No face was detected in the image',
    });
    expect(await service([alice, bob]).check({ userId: 'two', selfieBase64: selfie })).toMatchObject({ status: 'ERROR' });
    expect(await service([]).enrollment('two')).toBeNull();
  });

  it('makes a second check of the same face wait for the first, which it then matches', async () => {
    const carol = randomFace(random);
    let release!: () => void;
    let reached!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const atGate = new Promise<void>((resolve) => (reached = resolve));
    /** The first process pauses before enrolling, holding the gallery's lock. */
    class PausingGalleries extends FaceGalleries {
      override async enroll(...args: Parameters<FaceGalleries['enroll']>) {
        reached();
        await gate;
        return super.enroll(...args);
      }
    }
    const first = checkIn({ orm, galleries: new PausingGalleries(keyring) }, 'carol', carol);
    await Promise.race([atGate, first.then(() => Promise.reject(new Error('the first check ended without enrolling')))]);
    // a second check of the same face, by another process, must wait for the gallery's lock
    const waitingBefore = await lockWaiters();
    const second = checkIn({ orm: other, galleries: new FaceGalleries(keyring) }, 'carol-twin', nearby(carol, random));
    await eventually(async () => (await lockWaiters()) > waitingBefore, 10_000, 20);
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toMatchObject({ status: 'UNIQUE', enrolled: true });
    expect(b).toMatchObject({ status: 'DUPLICATE', enrolled: false, matches: [expect.objectContaining({ matchedUserId: 'carol' })] });
  });

  async function lockWaiters(): Promise<number> {
    const { rows } = await admin.query<{ n: number }>(
      `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`,
    );
    return rows[0].n;
  }
});
