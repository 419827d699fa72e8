import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually, startTestStack, type TestStack } from './support/stack.js';
import { selfSignedCertificate, startReceiver, verifiedPayload } from './support/https-receiver.js';
import { planBills } from '../bench/support/bill-corpus.js';
import { renderBill } from '../bench/support/bill-render.js';
import { CONDITIONS } from '../bench/support/conditions.js';
import { daysAgo, electricityBill, factureEau } from './support/bills.js';

const cert = selfSignedCertificate();

/** A multipart body (Form A): text fields, then the document. */
function formA(fields: Record<string, string>, document?: Buffer, type = 'image/jpeg'): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (document) body.append('document', new Blob([new Uint8Array(document)], { type }), 'bill.jpg');
  return body;
}

/**
 * A local HTTP server the documents are downloaded from (Form B): each path answers as set, and
 * every request is counted (an SSRF attempt must never reach it).
 */
async function documentServer() {
  const paths = new Map<string, (res: http.ServerResponse) => void>();
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const answer = paths.get((req.url ?? '').split('?')[0]);
    if (!answer) return void res.writeHead(404).end('not found');
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  // a host name, not an address literal: the SSRF guard resolves and pins it as in production
  const base = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    base,
    hits,
    serve: (path: string, answer: (res: http.ServerResponse) => void) => paths.set(path, answer),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

const MOI = ['12 Moi Avenue, Apt 4', 'Nairobi 00100'];

describe('address verification end to end (Form A uploads, Form B URLs, OCR in English and French, review, webhooks)', () => {
  let stack: TestStack;
  let h: Record<string, string>;
  let clientId: string;
  let files: Awaited<ReturnType<typeof documentServer>>;

  beforeAll(async () => {
    stack = await startTestStack({ WEBHOOK_RETRY_DELAYS: '1,1,1', ADDRESS_FETCH_TIMEOUT_MS: '5000' }, { webhookCa: cert.cert });
    const client = await stack.createClient({ name: 'address' });
    clientId = client.id;
    h = { 'x-api-key': client.apiKey };
    files = await documentServer();
  });
  afterAll(async () => {
    await files?.close();
    await stack?.stop();
  });

  const submitA = (fields: Record<string, string>, document?: Buffer, type?: string) =>
    stack.rest('POST', '/v1/verifications/address', formA(fields, document, type), h);
  const submitB = (body: Record<string, unknown>) => stack.rest('POST', '/verifications/address', body, h);

  /** The verification once its check decided (the job runs in the background). */
  const decided = (id: string) =>
    eventually(async () => {
      const res = await stack.rest('GET', `/verifications/address/${id}`, undefined, h);
      return res.body.status === 'PROCESSING' ? null : res.body;
    }, 60_000);

  /** A receiver of the three address events for one test (receivers close after each test; the webhook is deactivated). */
  let webhooks: { delivered(event: string, id: string): Promise<any>; stop(): Promise<unknown> } | null = null;
  beforeEach(async () => {
    const receiver = await startReceiver(cert);
    const hook = await stack.rest(
      'POST',
      '/webhooks/configure',
      { clientId, callbackUrl: receiver.url, events: ['address.verified', 'address.rejected', 'address.manual_review'] },
      h,
    );
    expect(hook.status).toBe(201);
    webhooks = {
      // the signed delivery of `event` about verification `id`
      delivered: (event, id) =>
        eventually(async () => {
          const payloads = receiver.received.map((r) => verifiedPayload(hook.body.secret, r));
          return payloads.find((p) => p.event === event && p.data.verificationId === id);
        }, 30_000),
      stop: () => stack.rest('DELETE', `/webhooks/${hook.body.id}`, undefined, h),
    };
  });
  afterEach(() => webhooks?.stop());
  const delivered = (event: string, id: string) => webhooks!.delivered(event, id);

  it('verifies a recent bill showing the declared address (Form A): fields, age as text, match explained, webhook', async () => {
    const created = await submitA(
      { userId: 'addr-user-1', documentType: 'UTILITY_BILL', country: 'KE', expectedAddress: '12 Moi Ave, Nairobi' },
      await electricityBill('AMINA WANJIKU', MOI, daysAgo(44)),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(String),
      userId: 'addr-user-1',
      documentType: 'UTILITY_BILL',
      status: 'PROCESSING',
      createdAt: expect.any(String),
      extractedData: null,
      addressMatch: null,
      documentAge: null,
      completedAt: null,
      documentSource: 'UPLOAD',
      documentImageUrl: expect.stringMatching(/^\/files\/[0-9a-f-]{36}$/),
    });
    const address = await decided(created.body.id);
    expect(address).toMatchObject({
      status: 'VERIFIED',
      reasons: [],
      extractedData: {
        fullName: 'AMINA WANJIKU',
        address: '12 Moi Avenue, Apt 4, Nairobi 00100',
        issueDate: daysAgo(44),
        issuer: 'KENYA POWER AND LIGHTING',
      },
      addressMatch: true,
      documentAge: '44 days',
      documentAgeDays: 44,
      completedAt: expect.any(String),
    });
    expect(address.addressMatchScore).toBeGreaterThanOrEqual(0.85);
    expect(address.addressMatchExplanation).toMatch(/^Every part of the declared address is on the document\..*: match\.$/);
    const image = await stack.rest('GET', address.documentImageUrl, undefined, h);
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/jpeg']);

    expect((await delivered('address.verified', created.body.id)).data).toMatchObject({
      userId: 'addr-user-1',
      status: 'VERIFIED',
      addressMatch: true,
      documentAge: '44 days',
      extractedData: { fullName: 'AMINA WANJIKU' },
    });
  });

  it('rejects a bill older than 3 months, and one showing another address', async () => {
    const [old, elsewhere] = await Promise.all([
      submitA(
        { userId: 'addr-user-2', documentType: 'UTILITY_BILL', country: 'KE', expectedAddress: '12 Moi Avenue, Nairobi' },
        await electricityBill('AMINA WANJIKU', MOI, daysAgo(120)),
      ),
      submitA(
        { userId: 'addr-user-3', documentType: 'UTILITY_BILL', country: 'KE', expectedAddress: '45 Kenyatta Road, Mombasa' },
        await electricityBill('AMINA WANJIKU', MOI, daysAgo(10)),
      ),
    ]);
    const [a, b] = await Promise.all([decided(old.body.id), decided(elsewhere.body.id)]);
    expect(a).toMatchObject({ status: 'REJECTED', documentAge: '120 days', addressMatch: true, completedAt: expect.any(String) });
    expect(a.reasons).toEqual(['DOCUMENT_TOO_OLD']);
    expect(b).toMatchObject({ status: 'REJECTED', reasons: ['ADDRESS_MISMATCH'], addressMatch: false, documentAge: '10 days' });
    expect(b.addressMatchExplanation).toMatch(/^Not found on the document: 45, kenyatta, road, mombasa.*mismatch\.$/);
    expect((await delivered('address.rejected', old.body.id)).data).toMatchObject({ status: 'REJECTED', reasons: ['DOCUMENT_TOO_OLD'] });
    await delivered('address.rejected', elsewhere.body.id);
  });

  it('sends a near address to a reviewer, whose decision is final (409 outside MANUAL_REVIEW)', async () => {
    const near = await submitA(
      { userId: 'addr-user-4', documentType: 'BANK_STATEMENT', country: 'KE', expectedAddress: '14 Moi Avenue, Nairobi' },
      await electricityBill('AMINA WANJIKU', MOI, daysAgo(5)),
    );
    const flagged = await decided(near.body.id);
    expect(flagged).toMatchObject({ status: 'MANUAL_REVIEW', reasons: ['ADDRESS_PARTIAL_MATCH'], addressMatch: false, completedAt: null });
    expect(flagged.addressMatchExplanation).toMatch(/the number 14 differs/);
    expect((await delivered('address.manual_review', near.body.id)).data).toMatchObject({ status: 'MANUAL_REVIEW' });

    const queue = await stack.gql(`{ addressVerifications(filter: { status: MANUAL_REVIEW }) { nodes { id } } }`, {}, h);
    expect(queue.body.data.addressVerifications.nodes).toEqual([{ id: near.body.id }]);

    const decision = { decision: 'VERIFIED', reviewedBy: 'officer@example.com', reviewNotes: 'Flat 14 confirmed by phone' };
    const reviewed = await stack.rest('POST', `/verifications/address/${near.body.id}/review`, decision, h);
    expect(reviewed.status).toBe(200);
    expect(reviewed.body).toMatchObject({ status: 'VERIFIED', reviewedBy: 'officer@example.com', completedAt: expect.any(String) });
    expect((await delivered('address.verified', near.body.id)).data).toMatchObject({ reviewedBy: 'officer@example.com' });

    const again = await stack.rest('POST', `/v1/verifications/address/${near.body.id}/review`, decision, h);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/VERIFIED.*allowed from: MANUAL_REVIEW/);
    const unknown = await stack.rest('POST', '/verifications/address/00000000-0000-4000-8000-000000000000/review', decision, h);
    expect(unknown.status).toBe(404);
    const incomplete = await stack.rest('POST', `/verifications/address/${near.body.id}/review`, { decision: 'VERIFIED' }, h);
    expect(incomplete.status).toBe(400);
  });

  it('verifies a tilted bill printed in two columns (tune bill #92 of the address bench, dated 38 days ago)', async () => {
    const { bill, condition, seed } = planBills('bill-corpus/tune/1', 93, CONDITIONS)[92];
    const issued = daysAgo(38);
    // the bench's bill, printed in the same form (YYYY-MM-DD), as the check's today sees it
    const tilted = await renderBill({ ...bill, issueDate: issued, printedDate: issued }, condition, seed);
    const created = await submitA(
      { userId: 'addr-user-9', documentType: 'UTILITY_BILL', country: 'ZA', expectedAddress: bill.address.join(', ') },
      tilted,
    );
    expect(created.status).toBe(201);
    // read as OCR gives it (labels in one block, values in another, the page askew) the date came from the wrong row and the address took it as a line: REJECTED
    expect(await decided(created.body.id)).toMatchObject({
      status: 'VERIFIED',
      reasons: [],
      addressMatch: true,
      documentAge: '38 days',
      extractedData: { address: bill.address.join(', '), issueDate: issued },
    });
  });

  it('reads a French bill downloaded from its URL (Form B), and follows it on a subscription and under the user', async () => {
    const events = stack.subscribe(
      `subscription($userId: String!) { addressVerificationUpdatedForUser(userId: $userId) { type node { id status documentAge } } }`,
      { userId: 'addr-user-5' },
      h,
    );
    await events.ready;
    const bill = await factureEau('Awa Diop', ['25 Rue Félix Faure', 'Dakar'], daysAgo(20));
    files.serve('/factures/eau.jpg', (res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(bill));
    const created = await submitB({
      userId: 'addr-user-5',
      documentType: 'UTILITY_BILL',
      documentUrl: `${files.base}/factures/eau.jpg?token=secret-signature`,
      declaredAddress: '25 rue Felix-Faure, Dakar',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'PROCESSING',
      documentSource: 'URL',
      country: null,
      // the query string (a signed URL's token) is not kept
      documentUrl: `${files.base}/factures/eau.jpg`,
      expectedAddress: '25 rue Felix-Faure, Dakar',
    });
    const address = await decided(created.body.id);
    expect(address).toMatchObject({
      status: 'VERIFIED',
      addressMatch: true,
      documentAge: '20 days',
      extractedData: { fullName: 'Awa Diop', address: '25 Rue Félix Faure, Dakar', issueDate: daysAgo(20) },
    });
    expect(address.extractedData.issuer).toMatch(/^S[EÉ]N[EÉ]GALAISE DES EAUX$/);

    const moves = await events.next(2, 60_000);
    expect(moves.map((e) => e.data.addressVerificationUpdatedForUser.type)).toEqual(['ADDRESS_PROCESSING', 'ADDRESS_VERIFIED']);
    expect(moves[1].data.addressVerificationUpdatedForUser.node).toEqual({
      id: created.body.id,
      status: 'VERIFIED',
      documentAge: '20 days',
    });
    await events.close();

    const user = await stack.gql(`{ user(id: "addr-user-5") { addressVerifications(first: 5) { nodes { id status } } } }`, {}, h);
    expect(user.body.data.user.addressVerifications.nodes).toEqual([{ id: created.body.id, status: 'VERIFIED' }]);
    const list = await stack.rest('GET', '/verifications/address/user/addr-user-5?page=1&limit=5', undefined, h);
    expect(list.body).toMatchObject({ total: 1, page: 1, limit: 5, data: [{ id: created.body.id, status: 'VERIFIED' }] });
  });

  it('takes a GraphQL mutation with a URL, and answers user errors', async () => {
    const bill = await electricityBill('AMINA WANJIKU', MOI, daysAgo(3));
    files.serve('/gql.jpg', (res) => res.writeHead(200).end(bill));
    const mutation = `mutation($input: CreateAddressVerificationInput!) {
      createAddressVerification(input: $input) { addressVerification { id status documentSource } userErrors { field code message } } }`;
    const ok = await stack.gql(
      mutation,
      {
        input: {
          userId: 'addr-user-6',
          documentType: 'UTILITY_BILL',
          documentUrl: `${files.base}/gql.jpg`,
          expectedAddress: '12 Moi Avenue',
        },
      },
      h,
    );
    expect(ok.body.data.createAddressVerification).toMatchObject({
      addressVerification: { status: 'PROCESSING', documentSource: 'URL' },
      userErrors: [],
    });
    expect((await decided(ok.body.data.createAddressVerification.addressVerification.id)).status).toBe('VERIFIED');
    const none = await stack.gql(mutation, { input: { userId: 'addr-user-6', documentType: 'UTILITY_BILL' } }, h);
    expect(none.body.data.createAddressVerification).toEqual({
      addressVerification: null,
      userErrors: [{ field: ['input', 'document'], code: 'BAD_USER_INPUT', message: 'document (an upload) or documentUrl is required' }],
    });
  });

  it('refuses slow, oversized, missing and non-image downloads with a clear error', async () => {
    files.serve('/slow.jpg', (res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.write(Buffer.from([0xff, 0xd8, 0xff]));
      // never ends: the fetch's deadline (ADDRESS_FETCH_TIMEOUT_MS) must end it
    });
    files.serve('/big.jpg', (res) =>
      res.writeHead(200, { 'content-length': String(11 * 1024 * 1024) }).end(Buffer.alloc(11 * 1024 * 1024, 0xff)),
    );
    files.serve('/streamed.jpg', (res) => {
      res.writeHead(200);
      for (let i = 0; i < 11; i++) res.write(Buffer.alloc(1024 * 1024, 0xff));
      res.end();
    });
    files.serve('/notes.txt', (res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end('this is not an image at all, only text'));
    const form = (path: string) => submitB({ userId: 'addr-user-7', documentType: 'UTILITY_BILL', documentUrl: `${files.base}${path}` });

    const slow = await form('/slow.jpg');
    expect([slow.status, slow.body.message]).toEqual([422, ['documentUrl: no complete answer within 5000 ms']]);
    const big = await form('/big.jpg');
    expect([big.status, big.body.message]).toEqual([413, 'documentUrl: the document exceeds the 10485760 byte limit']);
    // 11 MB without a length: refused once 10 MB have come, well within the deadline even on a busy machine
    expect((await form('/streamed.jpg')).status).toBe(413);
    const missing = await form('/gone.jpg');
    expect([missing.status, missing.body.message]).toEqual([422, ['documentUrl answered HTTP 404']]);
    const text = await form('/notes.txt');
    expect([text.status, text.body.message]).toEqual([415, 'documentUrl must be a JPEG, PNG, WebP or HEIC image']);
    const ftp = await submitB({ userId: 'u', documentType: 'UTILITY_BILL', documentUrl: 'ftp://example.com/bill.jpg' });
    expect([ftp.status, ftp.body.message]).toEqual([422, ['documentUrl must be an http or https URL']]);
  });

  it('refuses uploads that are not images (415) or too large (413), and names every other mistake', async () => {
    const fields = { userId: 'addr-user-8', documentType: 'UTILITY_BILL', country: 'KE' };
    const text = await submitA(fields, Buffer.from('this is not an image at all, only text'));
    expect([text.status, text.body.message]).toEqual([415, 'document must be a JPEG, PNG, WebP or HEIC image']);
    const huge = await submitA(fields, Buffer.alloc(11 * 1024 * 1024, 0xff));
    expect(huge.status).toBe(413);
    const bill = await electricityBill('AMINA WANJIKU', MOI, daysAgo(1));
    const noCountry = await submitA({ userId: 'u', documentType: 'UTILITY_BILL' }, bill);
    expect([noCountry.status, noCountry.body.message]).toEqual([400, ['country is required with an uploaded document']]);
    const badCountry = await submitA({ ...fields, country: 'kenya' }, bill);
    expect([badCountry.status, badCountry.body.message]).toEqual([422, ['country must be an uppercase ISO 3166-1 alpha-2 country code']]);
    const badType = await submitA({ ...fields, documentType: 'PAYSLIP' }, bill);
    expect(badType.status).toBe(422);
    expect(JSON.stringify(badType.body.message)).toMatch(
      /documentType must be one of: UTILITY_BILL, BANK_STATEMENT, TAX_DOCUMENT, GOVERNMENT_LETTER/,
    );
    const noDocument = await submitA(fields);
    expect([noDocument.status, noDocument.body.message]).toEqual([400, ['document (an upload) or documentUrl is required']]);
    const plain = await stack.rest('POST', '/verifications/address', 'userId=u', { ...h, 'content-type': 'text/plain' });
    expect([plain.status, plain.body.message]).toEqual([415, 'Content-Type must be multipart/form-data or application/json']);
  });

  it('refuses a URL pointing inside when private targets are not allowed (SSRF), before any request', async () => {
    const guarded = await startTestStack({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }, { databaseUrl: stack.databaseUrl });
    try {
      const key = { 'x-api-key': (await guarded.createClient({ name: 'ssrf' })).apiKey };
      files.serve('/inside.jpg', (res) => res.writeHead(200).end(Buffer.alloc(10)));
      const before = files.hits.length;
      for (const url of [
        `http://127.0.0.1:${new URL(files.base).port}/inside.jpg`,
        `${files.base}/inside.jpg`,
        'http://[::1]/inside.jpg',
      ]) {
        const res = await guarded.rest(
          'POST',
          '/verifications/address',
          { userId: 'u', documentType: 'UTILITY_BILL', documentUrl: url },
          key,
        );
        expect([res.status, res.body.message]).toEqual([422, ['documentUrl resolves to a private or loopback address']]);
      }
      expect(files.hits.length).toBe(before);
    } finally {
      await guarded.stop();
    }
  });
});
