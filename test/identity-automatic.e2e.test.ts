import pg from 'pg';
import { eventually, startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate, startReceiver, verifiedPayload } from './support/https-receiver.js';
import { AMINA, corrupt, passportPage, td3, type Holder } from './support/documents.js';
import { portrait } from './support/faces.js';
import { poses, type Poses } from './support/poses.js';
import { livenessClient, passLiveness } from './support/liveness.js';
import { listIndividuals } from './support/lists.js';

/**
 * Identity verifications that complete themselves: the user's document, liveness session and (for
 * ENHANCED) the AML screening of the name read from the document move the verification on their
 * own, with the real models judging rendered passports and the poses of one woman.
 */

const cert = selfSignedCertificate();
/** A second holder, not on any list (Amina is listed for the ENHANCED case). */
const ZAWADI: Holder = { ...AMINA, surname: 'OTIENO', givenNames: 'ZAWADI', documentNumber: 'C2468013' };
const IDENTITY_FIELDS = `id overallStatus faceMatchScore verifiedAt reasons steps { document liveness faceMatch aml }
  document { id status } livenessSession { id status } amlScreening { id status }`;

describe('identity verifications that complete themselves (document, liveness, face match, AML)', () => {
  let stack: TestStack;
  let h: Record<string, string>;
  let woman: Buffer;
  let man: Buffer;
  let p: Poses;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let secret: string;

  beforeAll(async () => {
    // a quick sweep: the crash test waits on it
    stack = await startTestStack({ WEBHOOK_RETRY_DELAYS: '1,1,1', IDENTITY_SWEEP_MS: '300' }, { webhookCa: cert.cert });
    await listIndividuals(stack.databaseUrl, ['Amina Grace Wanjiku']);
    const client = await stack.createClient({ name: 'identity automatic' });
    h = { 'x-api-key': client.apiKey };
    receiver = await startReceiver(cert);
    const webhook = await stack.rest(
      'POST',
      '/v1/webhooks/configure',
      { clientId: client.id, callbackUrl: receiver.url, events: ['identity.verified', 'identity.rejected', 'identity.manual_review'] },
      h,
    );
    secret = webhook.body.secret;
    [woman, man, p] = await Promise.all([portrait('woman'), portrait('man'), poses()]);
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  const start = async (userId: string, tier: string) => {
    const res = await stack.rest('POST', '/v1/verifications/identity', { userId, tier }, h);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const passport = async (userId: string, holder: Holder, photo: Buffer, mrz = td3(holder)) => {
    const body = new FormData();
    for (const [k, v] of Object.entries({ userId, documentType: 'PASSPORT', documentCountry: 'KE' })) body.append(k, v);
    body.append('frontImage', new Blob([new Uint8Array(await passportPage(holder, photo, mrz))], { type: 'image/jpeg' }), 'p.jpg');
    const res = await stack.rest('POST', '/v1/verifications/document', body, h);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  /** The verification once it left PENDING and IN_PROGRESS. */
  const decided = (id: string) =>
    eventually(async () => {
      const res = await stack.gql(`query($id: ID!) { identityVerification(id: $id) { ${IDENTITY_FIELDS} } }`, { id }, h);
      const v = res.body.data?.identityVerification;
      return v && !['PENDING', 'IN_PROGRESS'].includes(v.overallStatus) ? v : null;
    }, 90_000);

  it('BASIC: a good passport verifies the identity on its own (PENDING → IN_PROGRESS → VERIFIED), seen by subscribers, webhooks and REST', async () => {
    const id = await start('auto-basic', 'BASIC');
    const sub = stack.subscribe(
      `subscription($id: ID!) { identityVerificationUpdated(id: $id) { type node { overallStatus steps { document } } } }`,
      { id },
      h,
    );
    await sub.ready;
    try {
      const documentId = await passport('auto-basic', AMINA, woman);
      const v = await decided(id);
      expect(v).toMatchObject({
        overallStatus: 'VERIFIED',
        reasons: [],
        steps: { document: 'PASSED', liveness: 'NOT_REQUIRED', faceMatch: 'NOT_REQUIRED', aml: 'NOT_REQUIRED' },
        document: { id: documentId, status: 'VERIFIED' },
        livenessSession: null,
      });
      expect(v.verifiedAt).toEqual(expect.any(String));
      // one event per move, none for a notice that changed nothing
      const types = (await sub.next(2)).map((e) => e.data.identityVerificationUpdated.type);
      expect(types).toEqual(['IDENTITY_IN_PROGRESS', 'IDENTITY_VERIFIED']);
    } finally {
      await sub.close();
    }
    const rest = await stack.rest('GET', `/v1/verifications/identity/${id}`, undefined, h);
    expect(rest.body).toMatchObject({ overallStatus: 'VERIFIED', steps: { document: 'PASSED' } });
    const hook = await eventually(async () =>
      receiver.received
        .map((r) => verifiedPayload(secret, r))
        .find((e) => e.event === 'identity.verified' && e.data.identityVerificationId === id),
    );
    expect(hook.data).toMatchObject({ userId: 'auto-basic', status: 'VERIFIED', tier: 'BASIC' });
  }, 120_000);

  it('BASIC: a passport whose MRZ check digit fails rejects the identity, naming why', async () => {
    const id = await start('auto-forged', 'BASIC');
    const mrz = td3(AMINA);
    await passport('auto-forged', AMINA, woman, [mrz[0], corrupt(mrz[1], 9)]);
    expect(await decided(id)).toMatchObject({ overallStatus: 'REJECTED', reasons: ['DOCUMENT_REJECTED'], steps: { document: 'FAILED' } });
  }, 120_000);

  it('STANDARD: document + liveness of the same woman verify, with the face match recorded', async () => {
    const id = await start('auto-standard', 'STANDARD');
    await passport('auto-standard', ZAWADI, woman);
    // the document alone is not enough for STANDARD: it waits for liveness
    await eventually(async () => {
      const res = await stack.gql(`query($id: ID!) { identityVerification(id: $id) { ${IDENTITY_FIELDS} } }`, { id }, h);
      const v = res.body.data.identityVerification;
      return v.steps?.document === 'PASSED' && v.overallStatus === 'IN_PROGRESS' && v.steps.liveness === 'AWAITING';
    }, 90_000);
    const { session } = await passLiveness(livenessClient(stack, h), 'auto-standard', p);
    const v = await decided(id);
    expect(v).toMatchObject({
      overallStatus: 'VERIFIED',
      steps: { document: 'PASSED', liveness: 'PASSED', faceMatch: 'PASSED', aml: 'NOT_REQUIRED' },
      livenessSession: { id: session.id, status: 'PASSED' },
    });
    expect(v.faceMatchScore).toBeGreaterThanOrEqual(0.8);
  }, 180_000);

  it('STANDARD: a passport of another person than the live selfie is rejected for the face mismatch', async () => {
    const id = await start('auto-impostor', 'STANDARD');
    await passport('auto-impostor', ZAWADI, man);
    await passLiveness(livenessClient(stack, h), 'auto-impostor', p);
    const v = await decided(id);
    expect(v).toMatchObject({ overallStatus: 'REJECTED', reasons: ['FACE_MISMATCH'], steps: { faceMatch: 'FAILED' } });
    expect(v.faceMatchScore).toBeLessThan(0.5);
  }, 180_000);

  it('ENHANCED: screens the name read from the document; a listed name goes to a reviewer, a clear one verifies', async () => {
    const listed = await start('auto-enhanced-listed', 'ENHANCED');
    const clear = await start('auto-enhanced-clear', 'ENHANCED');
    await passport('auto-enhanced-listed', AMINA, woman);
    await passport('auto-enhanced-clear', ZAWADI, woman);
    await passLiveness(livenessClient(stack, h), 'auto-enhanced-listed', p);
    await passLiveness(livenessClient(stack, h), 'auto-enhanced-clear', p);
    const flagged = await decided(listed);
    expect(flagged).toMatchObject({
      overallStatus: 'MANUAL_REVIEW',
      reasons: ['AML_POTENTIAL_MATCH'],
      steps: { document: 'PASSED', liveness: 'PASSED', faceMatch: 'PASSED', aml: 'MANUAL_REVIEW' },
      amlScreening: { status: 'POTENTIAL_MATCH' },
    });
    expect(await decided(clear)).toMatchObject({ overallStatus: 'VERIFIED', steps: { aml: 'PASSED' }, amlScreening: { status: 'CLEAR' } });
    // the review queue holds the flagged one; a reviewer decides as before
    const review = await stack.rest(
      'POST',
      `/v1/verifications/identity/${listed}/review`,
      { decision: 'REJECTED', reviewedBy: 'officer-7', reviewNotes: 'the listed person' },
      h,
    );
    expect(review.body).toMatchObject({ overallStatus: 'REJECTED' });
  }, 240_000);

  it('uses only submissions made after the verification started: a restart starts from nothing', async () => {
    const first = await start('auto-restart', 'BASIC');
    await passport('auto-restart', AMINA, woman, []);
    await decided(first);
    const restarted = await stack.rest('POST', `/v1/verifications/identity/${first}/restart`, undefined, h);
    const res = await stack.gql(`query($id: ID!) { identityVerification(id: $id) { ${IDENTITY_FIELDS} } }`, { id: restarted.body.id }, h);
    expect(res.body.data.identityVerification).toMatchObject({ overallStatus: 'PENDING', steps: null, document: null });
  }, 120_000);

  it('a move lost to a crash (the document decided, the verification not moved) is made by the sweep', async () => {
    const id = await start('auto-sweep', 'BASIC');
    await passport('auto-sweep', AMINA, woman);
    expect(await decided(id)).toMatchObject({ overallStatus: 'VERIFIED' });
    // the verification as a process that died before applying the decision left it
    const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 1 });
    try {
      await db.query(
        `update verification.identity_verifications
            set overall_status = 'IN_PROGRESS', steps = null, verified_at = null, updated_at = created_at where id = $1`,
        [id],
      );
    } finally {
      await db.end();
    }
    // no new submission, no notice: only the sweep can finish it
    expect(await decided(id)).toMatchObject({ overallStatus: 'VERIFIED', steps: { document: 'PASSED' } });
  }, 120_000);
});
