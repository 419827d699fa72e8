import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { eventually, startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate, startReceiver, verifiedPayload } from './support/https-receiver.js';
import { AMINA, corrupt, idCardBack, idCardFront, passportPage, td1, type Holder } from './support/documents.js';
import { noFace, portrait } from './support/faces.js';

const cert = selfSignedCertificate();
const jpeg = (name: string, bytes: Buffer, type = 'image/jpeg') => ({ name, bytes, type });
type Part = ReturnType<typeof jpeg>;

/** A multipart body: text fields, then files. */
function form(fields: Record<string, string>, files: Part[]): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const file of files) body.append(file.name, new Blob([new Uint8Array(file.bytes)], { type: file.type }), `${file.name}.jpg`);
  return body;
}

const FIELDS = `id userId documentType documentCountry status frontImageUrl backImageUrl confidence reasons verifiedAt
  extractedData { fullName dateOfBirth documentNumber expiryDate nationality }
  checks { mrzFound mrzValid mrzFailedChecks expired faceFound sharpness ocrConfidence }`;

describe('document verification end to end (REST multipart, GraphQL uploads, files, webhooks)', () => {
  let stack: TestStack;
  let h: Record<string, string>;
  let other: Record<string, string>;
  let clientId: string;
  let woman: Buffer;

  beforeAll(async () => {
    stack = await startTestStack({ WEBHOOK_RETRY_DELAYS: '1,1,1' }, { webhookCa: cert.cert });
    const client = await stack.createClient({ name: 'documents' });
    clientId = client.id;
    h = { 'x-api-key': client.apiKey };
    other = { 'x-api-key': (await stack.createClient({ name: 'another organization' })).apiKey };
    woman = await portrait('woman');
  });
  afterAll(() => stack?.stop());

  const submit = (fields: Record<string, string>, files: Part[], headers = h) =>
    stack.rest('POST', '/v1/verifications/document', form(fields, files), headers);

  async function idCard(userId: string, holder: Holder = AMINA, mrz = td1(holder)) {
    const res = await submit({ userId, documentType: 'ID_CARD', documentCountry: 'KE' }, [
      jpeg('frontImage', await idCardFront(holder, woman)),
      jpeg('backImage', await idCardBack(mrz)),
    ]);
    expect(res.status).toBe(201);
    return res.body;
  }

  /** The document once its check decided (the job runs in the background). */
  const decided = (id: string) =>
    eventually(async () => {
      const res = await stack.rest('GET', `/verifications/document/${id}`, undefined, h);
      return ['PENDING', 'PROCESSING'].includes(res.body.status) ? null : res.body;
    }, 60_000);

  it('accepts an ID card (201 PENDING), reads it, verifies its MRZ and face, and tells webhooks', async () => {
    const receiver = await startReceiver(cert);
    const hook = await stack.rest(
      'POST',
      '/webhooks/configure',
      { clientId, callbackUrl: receiver.url, events: ['document.verified', 'document.rejected'] },
      h,
    );
    const created = await idCard('doc-user-1');
    expect(created).toMatchObject({
      id: expect.any(String),
      userId: 'doc-user-1',
      documentType: 'ID_CARD',
      documentCountry: 'KE',
      status: 'PENDING',
      frontImageUrl: expect.stringMatching(/^\/files\/[0-9a-f-]{36}$/),
      backImageUrl: expect.stringMatching(/^\/files\//),
    });
    const document = await decided(created.id);
    expect(document).toMatchObject({
      status: 'VERIFIED',
      reasons: [],
      extractedData: {
        fullName: 'AMINA GRACE WANJIKU',
        dateOfBirth: '1984-02-29',
        documentNumber: 'A12345678',
        expiryDate: '2030-01-01',
        nationality: 'KE',
      },
      checks: { mrzFound: true, mrzValid: true, mrzFailedChecks: [], expired: false, faceFound: true },
      verifiedAt: expect.any(String),
    });
    expect(document.confidence).toBeGreaterThan(0.5);

    await receiver.requests(1);
    const delivered = verifiedPayload(hook.body.secret, receiver.received[0]);
    expect(delivered).toMatchObject({
      event: 'document.verified',
      data: {
        verificationId: created.id,
        userId: 'doc-user-1',
        documentType: 'ID_CARD',
        documentCountry: 'KE',
        status: 'VERIFIED',
        confidence: document.confidence,
        extractedFields: { fullName: 'AMINA GRACE WANJIKU', documentNumber: 'A12345678' },
      },
    });
    await receiver.close();
  });

  it('serves the images to the owning organization only, and deletes them on request', async () => {
    const created = await idCard('doc-user-files');
    const image = await stack.rest('GET', created.frontImageUrl, undefined, h);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect((await sharp(image.body).metadata()).width).toBe(1100);
    expect((await stack.rest('GET', `/v1${created.backImageUrl}`, undefined, h)).status).toBe(200);
    expect((await stack.rest('GET', created.frontImageUrl, undefined, other)).status).toBe(404);
    expect((await stack.rest('GET', created.frontImageUrl)).status).toBe(401);
    // the gateway serves the same path to GraphQL clients
    const viaGateway = await fetch(new URL(created.frontImageUrl, stack.urls.gateway!), { headers: h });
    expect([viaGateway.status, viaGateway.headers.get('content-type')]).toEqual([200, 'image/jpeg']);

    const deleted = await stack.gql(
      `mutation($id: ID!) { deleteDocumentVerificationImages(input: { id: $id }) {
        documentVerification { frontImageUrl backImageUrl imagesDeletedAt } userErrors { code } } }`,
      { id: created.id },
      h,
    );
    expect(deleted.body.data.deleteDocumentVerificationImages).toMatchObject({
      documentVerification: { frontImageUrl: null, backImageUrl: null, imagesDeletedAt: expect.any(String) },
      userErrors: [],
    });
    expect((await stack.rest('GET', created.frontImageUrl, undefined, h)).status).toBe(404);
  });

  it('rejects a zone whose check digits fail, an expired document and a blurred image, saying why', async () => {
    const broken = td1(AMINA);
    broken[1] = corrupt(broken[1], 9); // a digit of the expiry date
    const wrongDigits = await idCard('doc-user-2', AMINA, broken);

    const expiredHolder = { ...AMINA, documentNumber: 'B7654321', expiryDate: '2024-06-30' };
    const expired = await submit({ userId: 'doc-user-3', documentType: 'PASSPORT', documentCountry: 'KE' }, [
      jpeg('frontImage', await passportPage(expiredHolder, woman)),
    ]);
    const blurredFront = await sharp(await idCardFront(AMINA, woman))
      .blur(4)
      .jpeg()
      .toBuffer();
    const blurred = await submit({ userId: 'doc-user-4', documentType: 'ID_CARD', documentCountry: 'KE' }, [
      jpeg('frontImage', blurredFront),
      jpeg('backImage', await idCardBack(td1(AMINA))),
    ]);

    const [a, b, c] = await Promise.all([decided(wrongDigits.id), decided(expired.body.id), decided(blurred.body.id)]);
    expect(a).toMatchObject({ status: 'REJECTED', checks: { mrzValid: false } });
    expect(a.reasons).toContain('MRZ_CHECK_DIGIT_FAILED:expirationDate');
    // the number's own check digit holds: it is read from the zone all the same
    expect(a.extractedData.documentNumber).toBe(AMINA.documentNumber);
    expect(a.checks.mrzFailedChecks).toContain('expirationDate');
    expect(b).toMatchObject({ status: 'REJECTED', checks: { mrzValid: true, expired: true }, extractedData: { expiryDate: '2024-06-30' } });
    expect(b.reasons).toContain('DOCUMENT_EXPIRED');
    expect(c.status).toBe('REJECTED');
    expect(c.reasons).toContain('IMAGE_TOO_BLURRY');
  });

  it('rejects a document without a portrait, and sends a passport without a readable zone to review', async () => {
    const faceless = await submit({ userId: 'doc-user-5', documentType: 'ID_CARD', documentCountry: 'KE' }, [
      jpeg('frontImage', await idCardFront(AMINA, await noFace())),
      jpeg('backImage', await idCardBack(td1(AMINA))),
    ]);
    const noZone = await submit({ userId: 'doc-user-6', documentType: 'PASSPORT', documentCountry: 'KE' }, [
      jpeg('frontImage', await passportPage(AMINA, woman, [])),
    ]);
    const [a, b] = await Promise.all([decided(faceless.body.id), decided(noZone.body.id)]);
    expect(a).toMatchObject({ status: 'REJECTED', checks: { faceFound: false } });
    expect(a.reasons).toContain('NO_FACE_ON_DOCUMENT');
    expect(b).toMatchObject({ status: 'MANUAL_REVIEW', checks: { mrzFound: false }, extractedData: { documentNumber: 'A12345678' } });
    expect(b.reasons).toContain('MRZ_NOT_FOUND');

    const review = `mutation($input: ReviewDocumentVerificationInput!) {
      reviewDocumentVerification(input: $input) { documentVerification { status reviewedBy verifiedAt } userErrors { code message } } }`;
    const input = { id: b.id, decision: 'VERIFIED', reviewedBy: 'officer@example.com', reviewNotes: 'Zone worn; data page checked' };
    const reviewed = await stack.gql(review, { input }, h);
    expect(reviewed.body.data.reviewDocumentVerification).toMatchObject({
      documentVerification: { status: 'VERIFIED', reviewedBy: 'officer@example.com', verifiedAt: expect.any(String) },
      userErrors: [],
    });
    const again = await stack.gql(review, { input: { ...input, id: a.id } }, h);
    expect(again.body.data.reviewDocumentVerification.userErrors).toEqual([
      { code: 'CONFLICT', message: expect.stringMatching(/REJECTED/) },
    ]);
  });

  it('accepts HEIC (recognised by its bytes) and refuses what is not an image or is too large', async () => {
    const heic = await submit({ userId: 'doc-user-7', documentType: 'PASSPORT', documentCountry: 'KE' }, [
      jpeg('frontImage', readFileSync('test/fixtures/passport.heic'), 'image/heic'),
    ]);
    expect(heic.status).toBe(201);
    expect((await decided(heic.body.id)).extractedData.documentNumber).toBe('H7654321');

    const fields = { userId: 'doc-user-8', documentType: 'PASSPORT', documentCountry: 'KE' };
    const text = await submit(fields, [jpeg('frontImage', Buffer.from('this is not an image at all, only text'))]);
    expect([text.status, text.body.message]).toEqual([415, 'frontImage must be a JPEG, PNG, WebP or HEIC image']);
    const huge = await submit(fields, [jpeg('frontImage', Buffer.alloc(11 * 1024 * 1024, 0xff))]);
    expect(huge.status).toBe(413);
    const corruptJpeg = Buffer.concat([(await portrait('man')).subarray(0, 200)]);
    const unreadable = await submit(fields, [jpeg('frontImage', corruptJpeg)]);
    expect([unreadable.status, unreadable.body.message]).toEqual([400, ['frontImage is not a readable image']]);
  });

  it('names the field of every other mistake', async () => {
    const front = jpeg('frontImage', await passportPage(AMINA, woman));
    const noBack = await submit({ userId: 'u', documentType: 'ID_CARD', documentCountry: 'KE' }, [front]);
    expect([noBack.status, noBack.body.message]).toEqual([400, [expect.stringMatching(/^backImage is required for ID_CARD/)]]);
    const badType = await submit({ userId: 'u', documentType: 'VISA', documentCountry: 'KE' }, [front]);
    expect([badType.status, badType.body.message]).toEqual([
      422,
      ['documentType must be one of: ID_CARD, PASSPORT, DRIVER_LICENSE, RESIDENCE_PERMIT'],
    ]);
    const badCountry = await submit({ userId: 'u', documentType: 'PASSPORT', documentCountry: 'ke' }, [front]);
    expect([badCountry.status, badCountry.body.message]).toEqual([
      422,
      ['documentCountry must be an uppercase ISO 3166-1 alpha-2 country code'],
    ]);
    const noFront = await submit({ userId: 'u', documentType: 'PASSPORT', documentCountry: 'KE' }, []);
    expect(noFront.status).toBe(400);
    expect(JSON.stringify(noFront.body.message)).toMatch(/frontImage/);
    const noUser = await submit({ documentType: 'PASSPORT', documentCountry: 'KE' }, [front]);
    expect(noUser.status).toBe(400);
    expect(JSON.stringify(noUser.body.message)).toMatch(/userId/);
    const json = await stack.rest('POST', '/verifications/document', { userId: 'u' }, h);
    expect(json.status).toBe(415);
    const cut = await stack.rest('POST', '/verifications/document', '--zz\r\nContent-Disposition: form-data; name="userId"\r\n\r\nu', {
      ...h,
      'content-type': 'multipart/form-data; boundary=zz',
    });
    expect(cut.status).toBe(400);
  });

  it('keeps documents to their organization and lists a user’s', async () => {
    const created = await idCard('doc-user-9');
    expect((await stack.rest('GET', `/verifications/document/${created.id}`, undefined, other)).status).toBe(404);
    const list = await stack.rest('GET', '/verifications/document/user/doc-user-9?page=1&limit=5', undefined, h);
    expect(list.body).toMatchObject({ total: 1, page: 1, limit: 5, data: [{ id: created.id }] });
    expect((await stack.rest('GET', '/verifications/document/user/doc-user-9', undefined, other)).body.total).toBe(0);
  });

  it('takes GraphQL uploads through the gateway, shows each move on a subscription and under the user', async () => {
    const events = stack.subscribe(
      `subscription($userId: String!) { documentVerificationUpdatedForUser(userId: $userId) { type node { id status } } }`,
      { userId: 'doc-user-10' },
      h,
    );
    await events.ready;
    const operations = {
      query: `mutation($input: CreateDocumentVerificationInput!) {
        createDocumentVerification(input: $input) { documentVerification { ${FIELDS} } userErrors { field code message } } }`,
      variables: { input: { userId: 'doc-user-10', documentType: 'PASSPORT', documentCountry: 'KE', frontImage: null } },
    };
    const body = new FormData();
    body.append('operations', JSON.stringify(operations));
    body.append('map', JSON.stringify({ 0: ['variables.input.frontImage'] }));
    body.append('0', new Blob([new Uint8Array(await passportPage(AMINA, woman))], { type: 'image/jpeg' }), 'passport.jpg');
    const res = await fetch(stack.urls.gateway!, { method: 'POST', headers: { ...h, 'apollo-require-preflight': 'true' }, body });
    const created = ((await res.json()) as any).data.createDocumentVerification;
    expect(created).toMatchObject({ documentVerification: { status: 'PENDING', backImageUrl: null }, userErrors: [] });

    const moves = await events.next(3, 60_000);
    expect(moves.map((e) => e.data.documentVerificationUpdatedForUser.type)).toEqual([
      'DOCUMENT_CREATED',
      'DOCUMENT_PROCESSING',
      'DOCUMENT_VERIFIED',
    ]);
    await events.close();

    const user = await stack.gql(`{ user(id: "doc-user-10") { documents(first: 5) { nodes { id status } } } }`, {}, h);
    expect(user.body.data.user.documents.nodes).toEqual([{ id: created.documentVerification.id, status: 'VERIFIED' }]);
  });
});
