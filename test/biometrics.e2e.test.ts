import sharp from 'sharp';
import { noFace, portrait, twoFaces } from './support/faces.js';
import { startTestStack, type TestStack } from './support/stack.js';

const CHECK_FIELDS = 'id userId status matchFound enrolled threshold matches { matchedUserId similarity enrolledAt } errorReason checkedAt';
const CHECK = `mutation($input: CheckBiometricDuplicateInput!) {
  checkBiometricDuplicate(input: $input) { biometricDedupCheck { ${CHECK_FIELDS} } userErrors { field code message } }
}`;
const DELETE = `mutation($userId: String!) {
  deleteBiometricEnrollment(input: { userId: $userId }) { biometricEnrollment { userId enrolledAt sourceCheck { id } } userErrors { field code message } }
}`;
const ENROLLMENT = `query($id: ID!) { user(id: $id) { biometricEnrollment { userId enrolledAt sourceCheck { id status } } } }`;

const base64 = (image: Buffer) => image.toString('base64');

describe('biometric deduplication end to end (REST, GraphQL, subscriptions)', () => {
  let stack: TestStack;
  let headers: Record<string, string>;
  let woman: string;
  let womanAgain: string;
  let man: string;

  beforeAll(async () => {
    stack = await startTestStack();
    headers = { 'x-api-key': (await stack.createClient({ name: 'dedup' })).apiKey };
    const photo = await portrait('woman');
    woman = base64(photo);
    // the same photo sent again, brightened and resized (as a client's camera pipeline would)
    womanAgain = base64(await sharp(photo).modulate({ brightness: 1.15 }).resize(300).jpeg().toBuffer());
    man = base64(await portrait('man'));
  });
  afterAll(() => stack?.stop());

  const check = (body: Record<string, unknown>, as = headers) => stack.rest('POST', '/v1/biometrics/dedup/check', body, as);

  it('enrols a new face, finds it again for another user, and tells a different face apart', async () => {
    const first = await check({ userId: 'ada', selfieBase64: woman });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: expect.any(String),
      userId: 'ada',
      status: 'UNIQUE',
      matchFound: false,
      enrolled: true,
      threshold: 0.9,
      errorReason: null,
      checkedAt: expect.any(String),
      createdAt: expect.any(String),
    });

    const again = await check({ userId: 'ada-second-account', selfieBase64: womanAgain, selfieMimeType: 'image/jpeg' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'DUPLICATE', matchFound: true, enrolled: false });
    expect(again.body.matches).toEqual([{ matchedUserId: 'ada', similarity: expect.any(Number), enrolledAt: expect.any(String) }]);
    expect(again.body.matches[0].similarity).toBeGreaterThanOrEqual(0.9);
    expect(again.body.matches[0].similarity).toBeLessThanOrEqual(1);

    const other = await check({ userId: 'bo', selfieBase64: man });
    expect(other.body).toMatchObject({ status: 'UNIQUE', matchFound: false, enrolled: true });

    // the duplicate account was not enrolled: a third account with the same face matches ada only
    const third = await check({ userId: 'ada-third-account', selfieBase64: woman, enroll: false });
    expect(third.body.matches.map((m: { matchedUserId: string }) => m.matchedUserId)).toEqual(['ada']);

    // the same user checked again is not a duplicate of themselves, and is not enrolled twice
    const self = await check({ userId: 'ada', selfieBase64: womanAgain });
    expect(self.body).toMatchObject({ status: 'UNIQUE', enrolled: true });
    const enrollment = await stack.gql(ENROLLMENT, { id: 'ada' }, headers);
    expect(enrollment.body.data.user.biometricEnrollment).toEqual({
      userId: 'ada',
      enrolledAt: expect.any(String),
      sourceCheck: { id: first.body.id, status: 'UNIQUE' },
    });

    const got = await stack.rest('GET', `/v1/biometrics/dedup/${again.body.id}`, undefined, headers);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(again.body);
  }, 120_000);

  it('does not enrol when asked not to, and a lower threshold finds less alike faces', async () => {
    const photo = await portrait('man');
    const checked = await check({ userId: 'cy', selfieBase64: base64(await sharp(photo).flop().jpeg().toBuffer()), enroll: false });
    // the mirrored man is the man (bo, enrolled above) at the default threshold
    expect(checked.body).toMatchObject({ status: 'DUPLICATE', enrolled: false });
    const enrollment = await stack.gql(ENROLLMENT, { id: 'cy' }, headers);
    expect(enrollment.body.data.user.biometricEnrollment).toBeNull();

    const strict = await check({ userId: 'dee', selfieBase64: man, threshold: 1, enroll: false });
    expect(strict.body).toMatchObject({ status: 'UNIQUE', enrolled: false, threshold: 1 });
    const lenient = await check({ userId: 'dee', selfieBase64: man, threshold: 0, enroll: false });
    // every other user's face scores at least 0: ada and bo
    expect(lenient.body.matches.map((m: { matchedUserId: string }) => m.matchedUserId).sort()).toEqual(['ada', 'bo']);
  }, 120_000);

  it('answers ERROR with a reason for a picture without a face or with two', async () => {
    const none = await check({ userId: 'eve', selfieBase64: base64(await noFace()) });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({
      status: 'ERROR',
      matchFound: false,
      enrolled: false,
      errorReason: 'No face was detected in the image',
    });
    const two = await check({ userId: 'eve', selfieBase64: base64(await twoFaces()) });
    expect(two.body).toMatchObject({ status: 'ERROR', enrolled: false, errorReason: expect.stringMatching(/^2 faces were detected/) });
    const enrollment = await stack.gql(ENROLLMENT, { id: 'eve' }, headers);
    expect(enrollment.body.data.user.biometricEnrollment).toBeNull();
  }, 120_000);

  it('refuses client mistakes with the documented statuses, naming the field', async () => {
    const missing = await check({ userId: 'fay' });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body.message)).toMatch(/selfieBase64/);
    const noUser = await check({ selfieBase64: woman });
    expect(noUser.status).toBe(400);
    expect(JSON.stringify(noUser.body.message)).toMatch(/userId/);

    const notBase64 = await check({ userId: 'fay', selfieBase64: 'this is not base64!' });
    expect(notBase64.status).toBe(400);
    expect(notBase64.body.message).toEqual(['selfieBase64 must be a base64 image']);

    const text = await check({ userId: 'fay', selfieBase64: Buffer.from('just some text, renamed selfie.jpg').toString('base64') });
    expect(text.status).toBe(415);
    expect(text.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const threshold = await check({ userId: 'fay', selfieBase64: woman, threshold: 1.5 });
    expect(threshold.status).toBe(422);
    expect(threshold.body.message).toEqual(['threshold must be between 0 and 1']);
    const notNumber = await check({ userId: 'fay', selfieBase64: woman, threshold: 'high' });
    expect(notNumber.status).toBe(400);
    expect(JSON.stringify(notNumber.body.message)).toMatch(/threshold/);
    const mime = await check({ userId: 'fay', selfieBase64: woman, selfieMimeType: 'application/pdf' });
    expect(mime.status).toBe(422);
    expect(mime.body.message).toEqual([expect.stringMatching(/^selfieMimeType must be one of: image\/jpeg, image\/png/)]);

    const tooLarge = await check({ userId: 'fay', selfieBase64: 'A'.repeat(14_500_000) });
    expect(tooLarge.status).toBe(413);

    const viaGraphQL = await stack.gql(CHECK, { input: { userId: 'fay', selfieBase64: woman, threshold: -0.1 } }, headers);
    expect(viaGraphQL.body.data.checkBiometricDuplicate).toEqual({
      biometricDedupCheck: null,
      userErrors: [{ field: ['input', 'threshold'], code: 'VALIDATION_FAILED', message: 'threshold must be between 0 and 1' }],
    });
    // nothing was recorded for these
    const listed = await stack.gql(`{ biometricDedupChecks(filter: { userId: "fay" }) { totalCount } }`, {}, headers);
    expect(listed.body.data.biometricDedupChecks.totalCount).toBe(0);
  }, 120_000);

  it('keeps organizations apart: another organization neither reads the checks nor matches the faces', async () => {
    const otherHeaders = { 'x-api-key': (await stack.createClient({ name: 'other org' })).apiKey };
    const mine = await check({ userId: 'gil', selfieBase64: woman, enroll: false });
    const notFound = await stack.rest('GET', `/v1/biometrics/dedup/${mine.body.id}`, undefined, otherHeaders);
    expect(notFound.status).toBe(404);
    expect(notFound.body.code).toBe('NOT_FOUND');
    expect(
      (await stack.gql(`query($id: ID!) { biometricDedupCheck(id: $id) { id } }`, { id: mine.body.id }, otherHeaders)).body.data,
    ).toEqual({
      biometricDedupCheck: null,
    });
    // the face enrolled in the first organization is unknown in the other one
    const theirs = await check({ userId: 'ada', selfieBase64: woman }, otherHeaders);
    expect(theirs.body).toMatchObject({ status: 'UNIQUE', enrolled: true });
    const theirsAgain = await check({ userId: 'hal', selfieBase64: womanAgain }, otherHeaders);
    expect(theirsAgain.body.matches.map((m: { matchedUserId: string }) => m.matchedUserId)).toEqual(['ada']);
    expect((await stack.gql(DELETE, { userId: 'bo' }, otherHeaders)).body.data.deleteBiometricEnrollment.userErrors[0].code).toBe(
      'NOT_FOUND',
    );
  }, 120_000);

  it('enrols one of two simultaneous checks of one face for two users', async () => {
    const keyOf = { 'x-api-key': (await stack.createClient({ name: 'race' })).apiKey };
    const [a, b] = await Promise.all([
      check({ userId: 'twin-a', selfieBase64: man }, keyOf),
      check({ userId: 'twin-b', selfieBase64: man }, keyOf),
    ]);
    expect([a.body.status, b.body.status].sort()).toEqual(['DUPLICATE', 'UNIQUE']);
    const unique = a.body.status === 'UNIQUE' ? a.body : b.body;
    const duplicate = a.body.status === 'UNIQUE' ? b.body : a.body;
    expect(duplicate.matches[0].matchedUserId).toBe(unique.userId);
  }, 120_000);

  it('follows a user’s checks live, and erases an enrolled face on request', async () => {
    const subscription = stack.subscribe(
      `subscription($u: String!) { biometricDedupCheckUpdatedForUser(userId: $u) { type node { id status matchFound matches { matchedUserId } checkedAt } } }`,
      { u: 'ivy' },
      headers,
    );
    await subscription.ready;
    const made = await stack.gql(CHECK, { input: { userId: 'ivy', selfieBase64: womanAgain } }, headers);
    const created = made.body.data.checkBiometricDuplicate.biometricDedupCheck;
    const [event] = await subscription.next(1);
    expect(event.data.biometricDedupCheckUpdatedForUser).toEqual({
      type: 'DEDUP_MATCH',
      node: { id: created.id, status: 'DUPLICATE', matchFound: true, matches: [{ matchedUserId: 'ada' }], checkedAt: created.checkedAt },
    });
    await subscription.close();

    const erased = await stack.gql(DELETE, { userId: 'ada' }, headers);
    expect(erased.body.data.deleteBiometricEnrollment).toEqual({
      biometricEnrollment: { userId: 'ada', enrolledAt: expect.any(String), sourceCheck: { id: expect.any(String) } },
      userErrors: [],
    });
    expect((await stack.gql(ENROLLMENT, { id: 'ada' }, headers)).body.data.user.biometricEnrollment).toBeNull();
    // the face is no longer compared with: the next user with it is unique (and enrolled in its place)
    const after = await check({ userId: 'jo', selfieBase64: woman });
    expect(after.body).toMatchObject({ status: 'UNIQUE', enrolled: true });
    const twice = await stack.gql(DELETE, { userId: 'ada' }, headers);
    expect(twice.body.data.deleteBiometricEnrollment.userErrors).toEqual([
      { field: null, code: 'NOT_FOUND', message: 'Biometric enrollment of user ada not found' },
    ]);
  }, 120_000);
});
