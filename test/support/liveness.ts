import type { TestStack } from './stack.js';
import type { Poses } from './poses.js';

/** Liveness sessions driven through REST, as a client app would (shared by the liveness and identity suites). */
export type Photo = Buffer;
export type ChallengeType = 'TURN_LEFT' | 'TURN_RIGHT' | 'LOOK_UP' | 'SMILE' | 'BLINK' | 'NOD';
export interface Challenge {
  id: string;
  type: ChallengeType;
  instruction: string;
}
export interface Created {
  id: string;
  sessionToken: string;
  challenges: Challenge[];
  [key: string]: unknown;
}

/** A photo each challenge type passes with (a nod: its two photos). */
export const passingPhotos = (p: Poses): Record<Exclude<ChallengeType, 'SMILE'>, Photo[]> => ({
  TURN_LEFT: [p.turnedLeft],
  TURN_RIGHT: [p.turnedRight],
  LOOK_UP: [p.lookingUp],
  BLINK: [p.eyesClosed],
  NOD: [p.lookingDown, p.lookingUp],
});

export function form(
  fields: Record<string, string>,
  files: Record<string, { bytes: Buffer; name?: string; type?: string }> = {},
): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const [name, file] of Object.entries(files)) {
    body.append(name, new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/jpeg' }), file.name ?? `${name}.jpg`);
  }
  return body;
}

export function livenessClient(stack: TestStack, headers: Record<string, string>) {
  const create = async (userId: string): Promise<Created> => {
    const res = await stack.rest('POST', '/v1/verifications/liveness/session', { userId }, headers);
    expect(res.status).toBe(201);
    return res.body;
  };
  return {
    create,
    /** A new session whose challenge types satisfy `wanted`. */
    async createWith(userId: string, wanted: (types: ChallengeType[]) => boolean): Promise<Created> {
      for (let i = 0; i < 200; i++) {
        const session = await create(userId);
        if (wanted(session.challenges.map((c) => c.type))) return session;
      }
      throw new Error('no session with the wanted challenges in 200 tries');
    },
    challenge: (sessionToken: string, challengeId: string, photo: Photo, name = 'photo.jpg') =>
      stack.rest(
        'POST',
        '/verifications/liveness/challenge',
        form({ sessionToken, challengeId }, { photo: { bytes: photo, name } }),
        headers,
      ),
    reference: (sessionToken: string, selfie: Photo) =>
      stack.rest('POST', '/v1/verifications/liveness/reference-selfie', form({ sessionToken }, { selfie: { bytes: selfie } }), headers),
    get: (id: string) => stack.rest('GET', `/verifications/liveness/${id}`, undefined, headers),
  };
}

export const hasAll = (wanted: ChallengeType[]) => (types: ChallengeType[]) => wanted.every((t) => types.includes(t));

/** A session of `userId` passed with the woman's poses (no SMILE: her neutral face reads none); its final answer. */
export async function passLiveness(client: ReturnType<typeof livenessClient>, userId: string, p: Poses) {
  const session = await client.createWith(userId, (types) => !types.includes('SMILE'));
  await client.reference(session.sessionToken, p.frontal);
  const photos = passingPhotos(p);
  let last;
  for (const challenge of session.challenges)
    for (const frame of photos[challenge.type as keyof typeof photos])
      last = await client.challenge(session.sessionToken, challenge.id, frame);
  return { session, last: last! };
}
