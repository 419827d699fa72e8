import sharp from 'sharp';
import { startTestStack, type TestStack } from './support/stack.js';
import { AMINA, corrupt, passportPage, td3, type Holder } from './support/documents.js';
import { noFace, portrait, selfie, twoFaces } from './support/faces.js';

const base64 = (bytes: Buffer) => bytes.toString('base64');

describe('AI identity check and fraud history (REST and GraphQL, real models, real database)', () => {
  let stack: TestStack;
  let h: Record<string, string>;
  let other: Record<string, string>;
  let womanSelfie: string;
  let manSelfie: string;

  beforeAll(async () => {
    stack = await startTestStack();
    h = { 'x-api-key': (await stack.createClient({ name: 'cognitive kyc' })).apiKey };
    other = { 'x-api-key': (await stack.createClient({ name: 'another organization' })).apiKey };
    womanSelfie = base64(await selfie('woman'));
    manSelfie = base64(await selfie('man'));
  });
  afterAll(() => stack?.stop());

  const passport = async (holder: Holder = AMINA, mrz = td3(holder)) => base64(await passportPage(holder, await portrait('woman'), mrz));
  const verify = (body: Record<string, unknown>, headers = h) => stack.rest('POST', '/v1/cognitive-kyc/verify', body, headers);
  const fraudCheck = (body: Record<string, unknown>, headers = h) => stack.rest('POST', '/cognitive-kyc/fraud-check', body, headers);

  it('approves the same person on a sound passport, with the fields of its zone', async () => {
    const res = await verify({ userId: 'ck-user-1', selfieBase64: womanSelfie, documentBase64: await passport() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      decision: 'APPROVED',
      documentFields: {
        fullName: 'AMINA GRACE WANJIKU',
        dateOfBirth: '1984-02-29',
        documentNumber: 'A12345678',
        expiryDate: '2030-01-01',
        nationality: 'KE',
        documentType: 'PASSPORT',
      },
      fraudIndicators: { tampering: false, photoManipulation: false, expiredDocument: false, blurryImage: false },
      fraudHistory: { priorVerifications: 0, flaggedAttempts: 0, riskLevel: 'LOW' },
      timestamp: expect.any(String),
    });
    expect(res.body.faceMatchReasoning).toMatch(
      /^The selfie matches the document portrait: score (0\.9\d|1\.00) against a threshold of 0\.80\.$/,
    );
    expect(res.body.confidence).toBeGreaterThan(0.5);
    // the check is kept (not the images), readable in GraphQL
    const read = await stack.gql(
      `query($id: ID!) { cognitiveKycCheck(id: $id) { id decision faceMatchScore user { id } } }`,
      { id: res.body.id },
      h,
    );
    expect(read.body.data.cognitiveKycCheck).toMatchObject({ decision: 'APPROVED', user: { id: 'ck-user-1' } });
    expect(read.body.data.cognitiveKycCheck.faceMatchScore).toBeGreaterThan(0.9);
    const theirs = await stack.gql(`query($id: ID!) { cognitiveKycCheck(id: $id) { id } }`, { id: res.body.id }, other);
    expect(theirs.body.data.cognitiveKycCheck).toBeNull();
  });

  it('rejects another person, naming the score in its reasoning', async () => {
    const holder = { ...AMINA, documentNumber: 'D1357924' }; // a passport no other user holds
    const res = await verify({ userId: 'ck-user-2', selfieBase64: manSelfie, documentBase64: await passport(holder) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ decision: 'REJECTED', reasons: ['FACE_MISMATCH'] });
    expect(res.body.faceMatchReasoning).toMatch(/does not match the document portrait: score 0\.\d\d, below the threshold of 0\.80/);
  });

  it('flags a failed check digit as tampering, an expired passport, a selfie that is the document itself, and a faceless document', async () => {
    const broken = td3(AMINA);
    broken[1] = corrupt(broken[1], 22); // a digit of the expiry date
    const expiredHolder = { ...AMINA, documentNumber: 'B7654321', expiryDate: '2024-06-30' };
    const page = await passport();
    const faceless = base64(await passportPage(AMINA, await noFace()));
    const [tampered, expired, copied, noPortrait] = await Promise.all([
      verify({ userId: 'ck-user-3', selfieBase64: womanSelfie, documentBase64: await passport(AMINA, broken) }),
      verify({ userId: 'ck-user-4', selfieBase64: womanSelfie, documentBase64: await passport(expiredHolder) }),
      verify({ userId: 'ck-user-5', selfieBase64: page, documentBase64: page }),
      verify({ userId: 'ck-user-6', selfieBase64: womanSelfie, documentBase64: faceless }),
    ]);
    expect(tampered.body).toMatchObject({ decision: 'REJECTED', fraudIndicators: { tampering: true } });
    expect(tampered.body.reasons).toContain('MRZ_CHECK_DIGIT_FAILED:expirationDate');
    expect(expired.body).toMatchObject({
      decision: 'REJECTED',
      fraudIndicators: { expiredDocument: true },
      documentFields: { expiryDate: '2024-06-30' },
    });
    expect(copied.body).toMatchObject({ decision: 'REJECTED', fraudIndicators: { photoManipulation: true } });
    expect(copied.body.reasons).toContain('SELFIE_COPIED_FROM_DOCUMENT');
    expect(noPortrait.status).toBe(200);
    expect(noPortrait.body).toMatchObject({ decision: 'REJECTED', reasons: expect.arrayContaining(['NO_FACE_ON_DOCUMENT']) });
    expect(noPortrait.body.faceMatchReasoning).toMatch(/No face was found on the document/);
  });

  it('sends a blurred selfie to review', async () => {
    const blurred = base64(
      await sharp(await selfie('woman'))
        .blur(2)
        .jpeg()
        .toBuffer(),
    );
    const res = await verify({ userId: 'ck-user-7', selfieBase64: blurred, documentBase64: await passport() });
    expect(res.body).toMatchObject({ decision: 'MANUAL_REVIEW', fraudIndicators: { blurryImage: true } });
  });

  it('refuses a selfie without exactly one face (422), what is not an image (415), and bad fields', async () => {
    const document = await passport();
    const [two, none, text, badType, missing] = await Promise.all([
      verify({ userId: 'ck-bad', selfieBase64: base64(await twoFaces()), documentBase64: document }),
      verify({ userId: 'ck-bad', selfieBase64: base64(await noFace()), documentBase64: document }),
      verify({ userId: 'ck-bad', selfieBase64: base64(Buffer.from('only text, no image at all')), documentBase64: document }),
      verify({ userId: 'ck-bad', selfieBase64: womanSelfie, documentBase64: document, selfieMimeType: 'text/plain' }),
      verify({ userId: 'ck-bad', selfieBase64: womanSelfie }),
    ]);
    expect([two.status, two.body.message]).toEqual([422, ['selfieBase64 must show exactly one face (found 2)']]);
    expect([none.status, none.body.message]).toEqual([422, ['selfieBase64 must show exactly one face (found 0)']]);
    expect([text.status, text.body.message]).toEqual([415, 'selfieBase64 must be a JPEG, PNG, WebP or HEIC image']);
    expect(badType.status).toBe(422);
    expect(JSON.stringify(badType.body.message)).toMatch(/^\["selfieMimeType must be one of: image\/jpeg/);
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body.message)).toMatch(/documentBase64/);
  });

  it('answers the fraud history: 400 without a criterion, matches and risk after checks, a document number under two users flagged', async () => {
    const none = await fraudCheck({});
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(JSON.stringify(none.body.message)).toMatch(/userId, documentNumber or fullName/);

    const holder = { ...AMINA, documentNumber: 'C2468135' };
    const first = await verify({ userId: 'ck-owner', selfieBase64: womanSelfie, documentBase64: await passport(holder) });
    expect(first.body).toMatchObject({ decision: 'APPROVED', fraudHistory: { priorVerifications: 0, riskLevel: 'LOW' } });
    // the same passport under another userId: flagged, and the check goes to a reviewer
    const second = await verify({ userId: 'ck-impostor', selfieBase64: womanSelfie, documentBase64: await passport(holder) });
    expect(second.body).toMatchObject({
      decision: 'MANUAL_REVIEW',
      fraudHistory: { priorVerifications: 1, flaggedAttempts: 1, riskLevel: 'HIGH' },
    });
    expect(second.body.reasons).toContain('HIGH_FRAUD_RISK_HISTORY');

    const byNumber = await fraudCheck({ documentNumber: 'C2468135' });
    expect(byNumber.status).toBe(200);
    expect(byNumber.body).toMatchObject({
      matches: 2,
      riskLevel: 'HIGH',
      recommendation: expect.stringMatching(/^Do not approve automatically/),
    });
    expect(byNumber.body.history.map((e: any) => [e.verificationId, e.decision])).toEqual([
      [second.body.id, 'MANUAL_REVIEW'],
      [first.body.id, 'APPROVED'],
    ]);
    expect(byNumber.body.history[0]).toMatchObject({ date: expect.any(String), reason: expect.stringMatching(/held by another user/) });

    const byUser = await fraudCheck({ userId: 'ck-user-2' });
    expect(byUser.body).toMatchObject({ matches: 1, riskLevel: 'MEDIUM', history: [{ decision: 'REJECTED', reason: 'FACE_MISMATCH' }] });
    // names compare without accents, case or punctuation
    const byName = await fraudCheck({ fullName: 'amína grace  Wanjiku' });
    expect(byName.body.matches).toBeGreaterThanOrEqual(2);
    // another organization has no history here
    expect((await fraudCheck({ documentNumber: 'C2468135' }, other)).body).toMatchObject({ matches: 0, riskLevel: 'LOW', history: [] });
  });

  it('runs as a GraphQL mutation, shows the decision on the subscriptions, and settles a review', async () => {
    const events = stack.subscribe(
      `subscription($userId: String!) { cognitiveKycCheckUpdatedForUser(userId: $userId) { type node { id decision } } }`,
      { userId: 'ck-user-gql' },
      h,
    );
    await events.ready;
    const blurred = base64(
      await sharp(await selfie('woman'))
        .blur(2)
        .jpeg()
        .toBuffer(),
    );
    const created = await stack.gql(
      `mutation($input: CreateCognitiveKycCheckInput!) { createCognitiveKycCheck(input: $input) {
        cognitiveKycCheck { id decision faceMatchReasoning fraudIndicators { blurryImage } } userErrors { field code message } } }`,
      { input: { userId: 'ck-user-gql', selfieBase64: blurred, documentBase64: await passport() } },
      h,
    );
    const check = created.body.data.createCognitiveKycCheck;
    expect(check).toMatchObject({
      cognitiveKycCheck: { decision: 'MANUAL_REVIEW', fraudIndicators: { blurryImage: true } },
      userErrors: [],
    });

    const review = `mutation($input: ReviewCognitiveKycCheckInput!) { reviewCognitiveKycCheck(input: $input) {
      cognitiveKycCheck { decision reviewedBy } userErrors { code message } } }`;
    const input = {
      id: check.cognitiveKycCheck.id,
      decision: 'APPROVED',
      reviewedBy: 'officer@example.com',
      reviewNotes: 'Retook the selfie in person',
    };
    expect((await stack.gql(review, { input }, h)).body.data.reviewCognitiveKycCheck).toMatchObject({
      cognitiveKycCheck: { decision: 'APPROVED', reviewedBy: 'officer@example.com' },
      userErrors: [],
    });
    const again = await stack.gql(review, { input }, h);
    expect(again.body.data.reviewCognitiveKycCheck.userErrors).toEqual([{ code: 'CONFLICT', message: expect.stringMatching(/APPROVED/) }]);

    const moves = await events.next(2, 30_000);
    expect(moves.map((e) => e.data.cognitiveKycCheckUpdatedForUser)).toEqual([
      { type: 'COGNITIVE_KYC_MANUAL_REVIEW', node: { id: check.cognitiveKycCheck.id, decision: 'MANUAL_REVIEW' } },
      { type: 'COGNITIVE_KYC_APPROVED', node: { id: check.cognitiveKycCheck.id, decision: 'APPROVED' } },
    ]);
    await events.close();

    const queue = await stack.gql(
      `{ cognitiveKycChecks(filter: { userId: "ck-user-gql", decision: APPROVED }) { totalCount nodes { id } } }`,
      {},
      h,
    );
    expect(queue.body.data.cognitiveKycChecks).toEqual({ totalCount: 1, nodes: [{ id: check.cognitiveKycCheck.id }] });
    const user = await stack.gql(`{ user(id: "ck-user-gql") { cognitiveKycChecks(first: 5) { nodes { id } } } }`, {}, h);
    expect(user.body.data.user.cognitiveKycChecks.nodes).toEqual([{ id: check.cognitiveKycCheck.id }]);
  });
});
