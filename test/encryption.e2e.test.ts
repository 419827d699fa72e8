import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../platform/config.js';
import { masterKeyId, parseMasterKey } from '../platform/crypto/key-provider.js';
import { masterKeyProvider } from '../platform/crypto/master-key.js';
import { ADMIN_SECRET, eventually, startTestStack, TEST_MASTER_KEY, type TestStack } from './support/stack.js';
import { idCardForm } from './support/documents.js';
import { portrait } from './support/faces.js';

const execFileAsync = promisify(execFile);

/** Personal values the suite writes: none may appear in a raw row or a stored file. */
const PLAIN = { documentNumber: 'A12345678', dateOfBirth: '1984-02-29', phone: '233241234567', otherPhone: '233241234568' };
const admin = { 'x-admin-secret': ADMIN_SECRET };

describe('encryption at rest (envelope: a data key per organization, wrapped by the master key)', () => {
  let stack: TestStack;
  let db: pg.Pool;
  let storage: string;
  let organizationId: string;
  let live: Record<string, string>;
  let sandbox: Record<string, string>;
  let documentId: string;
  let frontFileId: string;

  beforeAll(async () => {
    storage = mkdtempSync(path.join(tmpdir(), 'afri-encrypted-files-'));
    stack = await startTestStack({ STORAGE_DIR: storage });
    db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
    const client = await stack.createClient({ name: 'encryption' });
    organizationId = client.organizationId;
    live = { 'x-api-key': client.apiKey };
    sandbox = { 'x-api-key': (await stack.createClient({ name: 'encryption sandbox', environment: 'test', organizationId })).apiKey };

    const form = await idCardForm('enc-user-1', await portrait('woman'));
    const created = await stack.rest('POST', '/v1/verifications/document', form, live);
    expect(created.status).toBe(201);
    documentId = created.body.id;
    frontFileId = created.body.frontImageUrl.split('/').pop();
    const decided = await eventually(async () => {
      const res = await stack.rest('GET', `/v1/verifications/document/${documentId}`, undefined, live);
      return ['PENDING', 'PROCESSING'].includes(res.body.status) ? null : res.body;
    }, 60_000);
    expect(decided.extractedData).toMatchObject({ documentNumber: PLAIN.documentNumber, dateOfBirth: PLAIN.dateOfBirth });
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
    rmSync(storage, { recursive: true, force: true });
  });

  const mobileMoney = async (phone: string) => {
    const res = await stack.rest(
      'POST',
      '/v1/verifications/mobile-money',
      { userId: 'enc-user-1', phoneNumber: `+${phone}`, provider: 'MTN_MOMO', country: 'GH' },
      sandbox,
    );
    expect(res.status).toBe(200);
    return res.body.id as string;
  };
  /** Every column of a row as text, the way someone reading the table would see it. */
  const rawRow = async (table: string, id: string) =>
    (await db.query<{ row: string }>(`select row_to_json(t)::text as row from ${table} t where id = $1`, [id])).rows[0].row;
  const sealedColumn = async (table: string, column: string, id: string) =>
    (await db.query<{ value: string }>(`select ${column} as value from ${table} where id = $1`, [id])).rows[0].value;
  const storedFile = (id: string) => readFileSync(path.join(storage, id.slice(0, 2), id));
  const gql = (query: string, variables: Record<string, unknown>, headers: Record<string, string>) =>
    stack.gql(query, variables, headers).then((r) => r.body);

  it('keeps document numbers, dates of birth, face descriptions, phone numbers and e-mail addresses out of the raw tables; the API reads them back', async () => {
    const paymentId = await mobileMoney(PLAIN.phone);
    const document = await rawRow('verification.document_verifications', documentId);
    const payment = await rawRow('verification.mobile_money_verifications', paymentId);
    for (const value of Object.values(PLAIN)) {
      expect(document).not.toContain(value);
      expect(payment).not.toContain(value);
    }
    expect(document).not.toContain('AMINA');
    expect(JSON.parse(document)).toMatchObject({
      extracted_data_plaintext: null,
      face_embedding_plaintext: null,
      extracted_data_sealed: expect.stringMatching(/^enc:v1:/),
      face_embedding_sealed: expect.stringMatching(/^enc:v1:/),
      // searched by a keyed digest, never by the number itself
      document_number_index: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(JSON.parse(payment)).toMatchObject({ phone_number_plaintext: null, phone_number_sealed: expect.stringMatching(/^enc:v1:/) });

    // a notify recipient profile: its e-mail address and number
    const notify = { authorization: `Bearer ${(await stack.createClient({ name: 'notify', service: 'notify', organizationId })).apiKey}` };
    const profile = { email: 'amina.wanjiku@example.org', phone: `+${PLAIN.phone}` };
    expect((await stack.rest('PUT', '/v1/recipients/enc-user-1', profile, notify)).status).toBeLessThan(300);
    const { rows: recipients } = await db.query<{ row: string }>(
      `select row_to_json(r)::text as row from notify.recipients r where organization_id = $1 and id = 'enc-user-1'`,
      [organizationId],
    );
    expect(recipients[0].row).not.toContain(profile.email);
    expect(recipients[0].row).not.toContain(PLAIN.phone);
    expect((await stack.rest('GET', '/v1/recipients/enc-user-1', undefined, notify)).body).toMatchObject(profile);

    const read = await stack.rest('GET', `/v1/verifications/mobile-money/${paymentId}`, undefined, sandbox);
    expect(read.body.phoneNumber).toBe(`+${PLAIN.phone}`);
    const viaGraph = await gql(
      `query($id: ID!) { documentVerification(id: $id) { extractedData { documentNumber dateOfBirth fullName } } }`,
      { id: documentId },
      live,
    );
    expect(viaGraph.data.documentVerification.extractedData).toEqual({
      documentNumber: PLAIN.documentNumber,
      dateOfBirth: PLAIN.dateOfBirth,
      fullName: 'AMINA GRACE WANJIKU',
    });
    // the fraud history still finds the document by its number (blind index), and only in this organization
    const history = await stack.rest('POST', '/v1/cognitive-kyc/fraud-check', { documentNumber: PLAIN.documentNumber }, live);
    expect(history.body.history).toEqual([expect.objectContaining({ verificationId: documentId, source: 'DOCUMENT_VERIFICATION' })]);
    const stranger = { 'x-api-key': (await stack.createClient({ name: 'another organization' })).apiKey };
    const elsewhere = await stack.rest('POST', '/v1/cognitive-kyc/fraud-check', { documentNumber: PLAIN.documentNumber }, stranger);
    expect(elsewhere.body.matches).toBe(0);
  });

  it('stores files encrypted: the raw bytes are no image, the organization downloads the image', async () => {
    const stored = storedFile(frontFileId);
    expect(stored.subarray(0, 6).toString()).toBe('AFENC1');
    expect(stored.readUInt32BE(6)).toBe(1);
    const served = await stack.rest('GET', `/files/${frontFileId}`, undefined, live);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const image = served.body as Buffer;
    expect(image.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(stored.includes(image.subarray(0, 64))).toBe(false);
    expect(stored.includes(image.subarray(image.length - 64))).toBe(false);
    const { rows } = await db.query(`select key_version from platform.files where id = $1`, [frontFileId]);
    expect(rows[0].key_version).toBe(1);
  });

  it('rotates the data key without stopping: new writes use the new version, old ones stay readable, re-encryption moves them', async () => {
    const before = await mobileMoney(PLAIN.otherPhone);
    const rotated = await stack.rest('POST', '/admin/data-keys/rotate', { organizationId, reencrypt: false }, admin);
    expect([rotated.status, rotated.body.message]).toEqual([201, undefined]);
    expect(rotated.body).toEqual({ keyVersion: 2, reencryption: null });
    // written after the rotation: version 2; written before: still version 1, and both read back
    const after = await mobileMoney(PLAIN.otherPhone);
    expect(await sealedColumn('verification.mobile_money_verifications', 'phone_number_sealed', after)).toMatch(/^enc:v2:/);
    expect(await sealedColumn('verification.mobile_money_verifications', 'phone_number_sealed', before)).toMatch(/^enc:v1:/);
    for (const id of [before, after]) {
      expect((await stack.rest('GET', `/v1/verifications/mobile-money/${id}`, undefined, sandbox)).body.phoneNumber).toBe(
        `+${PLAIN.otherPhone}`,
      );
    }

    const moved = await stack.rest('POST', '/admin/data-keys/reencrypt', { organizationId }, admin);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ organizationId, keyVersion: 2, files: 2 });
    expect(moved.body.values).toBeGreaterThanOrEqual(4);
    const { rows: left } = await db.query(
      `select count(*)::int as n from verification.mobile_money_verifications
        where organization_id = $1 and phone_number_sealed not like 'enc:v2:%'`,
      [organizationId],
    );
    expect(left[0].n).toBe(0);
    expect(await sealedColumn('verification.document_verifications', 'extracted_data_sealed', documentId)).toMatch(/^enc:v2:/);
    const stored = storedFile(frontFileId);
    expect([stored.subarray(0, 6).toString(), stored.readUInt32BE(6)]).toEqual(['AFENC1', 2]);
    // read back through the API after the move
    expect((await stack.rest('GET', `/files/${frontFileId}`, undefined, live)).headers.get('content-type')).toBe('image/jpeg');
    const document = await stack.rest('GET', `/v1/verifications/document/${documentId}`, undefined, live);
    expect(document.body.extractedData.documentNumber).toBe(PLAIN.documentNumber);
    // both operations are in the organization's audit trail
    const audit = await gql(`query { auditEntries(first: 10) { nodes { action actor { kind } details } } }`, {}, live);
    expect(audit.data.auditEntries.nodes).toEqual(
      expect.arrayContaining([
        { action: 'DATA_KEY_ROTATED', actor: { kind: 'ADMIN' }, details: { version: 2 } },
        expect.objectContaining({ action: 'DATA_REENCRYPTED', actor: { kind: 'ADMIN' } }),
      ]),
    );
    // an unknown organization is a 404
    const unknown = await stack.rest(
      'POST',
      '/admin/data-keys/reencrypt',
      { organizationId: '00000000-0000-4000-8000-000000000000' },
      admin,
    );
    expect(unknown.status).toBe(404);
  });

  it('rotates the master key by rewrapping the data keys; a process holding only the new master key reads everything', async () => {
    const next = randomBytes(32);
    /** `npm run keys -- …` (the build's CLI) on the suite's database, with these master keys. */
    const keys = (command: string, current: Buffer, previous: string) =>
      execFileAsync(process.execPath, [path.resolve('dist/cli/keys.js'), command], {
        env: {
          ...process.env,
          DATABASE_URL: stack.databaseUrl,
          ENCRYPTION_MASTER_KEY: current.toString('base64'),
          ENCRYPTION_PREVIOUS_MASTER_KEYS: previous,
          LOG_LEVEL: 'silent',
        },
      }).then((r) => r.stdout);
    try {
      const rewrapped = await keys('rewrap', next, TEST_MASTER_KEY);
      // this organization's two versions and the blind-index key, all under the new master key now
      expect(rewrapped).toMatch(
        new RegExp(`^rewrapped \\d+ keys under ${masterKeyId(next)}\n${masterKeyId(next)} \\(current\\): \\d+ keys\n$`),
      );
      expect(Number(/rewrapped (\d+)/.exec(rewrapped)![1])).toBeGreaterThanOrEqual(3);
      const renewed = await startTestStack({ ENCRYPTION_MASTER_KEY: next.toString('base64') }, { databaseUrl: stack.databaseUrl });
      try {
        const document = await renewed.rest('GET', `/v1/verifications/document/${documentId}`, undefined, live);
        expect(document.body.extractedData.dateOfBirth).toBe(PLAIN.dateOfBirth);
      } finally {
        await renewed.stop();
      }
    } finally {
      // and back, so the suite's stack (which holds the data keys unwrapped already) and later stacks agree
      await keys('rewrap', parseMasterKey(TEST_MASTER_KEY), next.toString('base64'));
    }
  });

  it('seals rows written before encryption when a service starts (the backfill), and reads them back', async () => {
    const legacy = await mobileMoney(PLAIN.phone);
    // as an older release wrote it: the number in the plaintext column, nothing sealed
    await db.query(
      `update verification.mobile_money_verifications set phone_number_plaintext = $2, phone_number_sealed = null where id = $1`,
      [legacy, `+${PLAIN.phone}`],
    );
    const restarted = await startTestStack({}, { databaseUrl: stack.databaseUrl });
    try {
      expect(JSON.parse(await rawRow('verification.mobile_money_verifications', legacy))).toMatchObject({
        phone_number_plaintext: null,
        phone_number_sealed: expect.stringMatching(/^enc:v2:/),
      });
      const read = await restarted.rest('GET', `/v1/verifications/mobile-money/${legacy}`, undefined, sandbox);
      expect(read.body.phoneNumber).toBe(`+${PLAIN.phone}`);
    } finally {
      await restarted.stop();
    }
  });

  it('refuses to start in production without a master key, and keeps the generated development key', () => {
    expect(() => masterKeyProvider(loadConfig({ NODE_ENV: 'production' }))).toThrow(/ENCRYPTION_MASTER_KEY is required in production/);
    const dir = mkdtempSync(path.join(tmpdir(), 'afri-master-key-'));
    try {
      const config = loadConfig({ EMBEDDED_PG_DIR: path.join(dir, 'postgres') });
      const first = masterKeyProvider(config);
      expect(masterKeyProvider(config).currentKeyId).toBe(first.currentKeyId);
      expect(statSync(path.join(dir, 'master.key')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
