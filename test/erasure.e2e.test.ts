import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { eventually, startTestStack, type TestStack } from './support/stack.js';
import { filesIn } from './support/files.js';
import { listIndividuals } from './support/lists.js';
import { idCardBack, idCardFront, passportPage, td1, type Holder } from './support/documents.js';
import { portrait, selfie } from './support/faces.js';
import { form, passingPhotos } from './support/liveness.js';
import { poses } from './support/poses.js';
import { daysAgo, electricityBill } from './support/bills.js';
import { selfSignedCertificate, startReceiver } from './support/https-receiver.js';
import { graphqlCall, graphqlRequests, restCall, restRequests, type Refs } from './support/probes.js';
import { KINDS } from './support/references.js';

/**
 * Erasure (issue 16): a user with records in every capability of the three services is erased;
 * afterwards no table, no file and no route gives back any of their personal values, what must be
 * kept (decisions, statuses, the fact of an AML hit) stays without them, another user's data is
 * untouched, and an erased face matches no one again.
 */
const cert = selfSignedCertificate();

const USER = 'user-halima-erase';
const KEEPER = 'user-keeper';
const HOLDER: Holder = {
  surname: 'ZUBEIRU',
  givenNames: 'HALIMA NKECHI',
  documentNumber: 'Z70431958',
  nationality: 'NGA',
  issuingState: 'NGA',
  dateOfBirth: '1979-03-17',
  expiryDate: '2031-06-30',
  sex: 'F',
};
const NAME = 'Halima Zubeiru';
const PHONE = '+2348031234567';
const EMAIL = 'halima.zubeiru@example.com';
const STREET = '17 Zubeiru Crescent';
const DEVICE_IP = '102.89.34.77';
const CHECKED_IP = '102.89.34.78';
const RISK_IP = '102.89.34.79';
const USER_AGENT = 'ZubeiruPhone/7.1 (Android 14; HZ-900)';
const BUSINESS = 'Zubeiru Foods Limited';
const REGISTRATION = 'RC-7781234';
/** Every personal value of the user, as they gave it or as it was read (compared without case). */
const NEEDLES = [
  'ZUBEIRU',
  'HALIMA NKECHI',
  HOLDER.documentNumber,
  HOLDER.dateOfBirth,
  '8031234567',
  EMAIL,
  STREET,
  DEVICE_IP,
  CHECKED_IP,
  RISK_IP,
  USER_AGENT,
  BUSINESS,
  REGISTRATION,
];

describe('erasing a user in every service', () => {
  let stack: TestStack;
  let db: pg.Pool;
  let storageDir: string;
  let h: Record<string, string>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** The user's records (kept ones are read back after the erasure), by kind. */
  const refs = Object.fromEntries(KINDS.map((k) => [k, ['00000000-0000-4000-8000-000000000000']])) as Refs;
  /** Face descriptions and enrolled vectors the user left (read from the tables before the erasure). */
  /** The user's values as the database holds them sealed (platform/crypto): after the erasure no column may hold one. */
  const sealedNeedles: string[] = [];
  let userFiles: string[];

  const call = async (method: string, url: string, body?: unknown) => {
    const res = await stack.rest(method, url, body, h);
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await stack.gql(query, variables, h);
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return res.body.data;
  };
  const settled = (url: string, pending: string[]) =>
    eventually(
      async () => {
        const body = await call('GET', url);
        return pending.includes(body.status) ? null : body;
      },
      60_000,
      200,
    );
  /**
   * Every column of every table (text, JSON, bytes, network addresses, arrays) holding one of the
   * needles (compared without case), or the bytes: `schema.table.column` and the value.
   */
  const leaksInTables = async (needles: readonly string[], bytes?: Buffer) => {
    const { rows: columns } = await db.query<{ schema: string; table: string; column: string; type: string }>(
      `select c.table_schema as schema, c.table_name as table, c.column_name as column, c.data_type as type
         from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
        where t.table_type = 'BASE TABLE' and c.table_schema not in ('pg_catalog', 'information_schema')
          and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'inet', 'cidr', 'bytea', 'ARRAY', 'USER-DEFINED')
          -- the sanctions lists are public reference data (the listed name is the list's, not the user's)
          and not (c.table_schema = 'screening' and c.table_name in ('list_entries', 'list_changes'))`,
    );
    expect(columns.length).toBeGreaterThan(100);
    const patterns = needles.map((n) => `%${n.replace(/[%_\\]/g, '\\$&')}%`);
    const leaks: Array<{ column: string; value: string }> = [];
    for (const c of columns) {
      const bytea = c.type === 'bytea' && bytes;
      const test = bytea
        ? `position($2::bytea in "${c.column}") > 0 or encode("${c.column}", 'escape') ilike any($1)`
        : `"${c.column}"::text ilike any($1)`;
      const { rows } = await db.query(
        `select "${c.column}"::text as v from "${c.schema}"."${c.table}" where ${test} limit 3`,
        bytea ? [patterns, bytes.subarray(0, 32)] : [patterns],
      );
      for (const r of rows) leaks.push({ column: `${c.schema}.${c.table}.${c.column}`, value: String(r.v).slice(0, 200) });
    }
    return leaks;
  };
  /** Which needles a value (an answer, a row) still holds. */
  const found = (value: unknown) => NEEDLES.filter((n) => JSON.stringify(value).toLowerCase().includes(n.toLowerCase()));

  beforeAll(async () => {
    storageDir = mkdtempSync(path.join(tmpdir(), 'erasure-files-'));
    stack = await startTestStack({ STORAGE_DIR: storageDir, PRIVACY_SWEEP_MS: '500' }, { webhookCa: cert.cert });
    db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
    // a listed name close to the user's (the hit is the list's entry, not the user's name)
    await listIndividuals(stack.databaseUrl, ['Halima Zubairu']);
    const client = await stack.createClient({ name: 'privacy officer', service: 'all', environment: 'test' });
    h = { authorization: `Bearer ${client.apiKey}` };
    receiver = await startReceiver(cert);
    refs.Webhook = [
      (
        await call('POST', '/webhooks/configure', {
          clientId: client.id,
          callbackUrl: receiver.url,
          events: ['document.verified', 'document.rejected', 'aml.flagged', 'phone.verified', 'user.erased'],
        })
      ).id,
    ];
    refs.User = [USER];

    // verification: identity, document, liveness, biometrics, AI check, screening, monitoring, device, IP, phone, email, mobile money, address, KYB
    refs.IdentityVerification = [(await call('POST', '/verifications/identity', { userId: USER, tier: 'BASIC' })).id];
    const woman = await portrait('woman');
    const document = await call(
      'POST',
      '/verifications/document',
      form(
        { userId: USER, documentType: 'ID_CARD', documentCountry: 'NG' },
        {
          frontImage: { bytes: await idCardFront(HOLDER, woman, 'FEDERAL REPUBLIC OF NIGERIA') },
          backImage: { bytes: await idCardBack(td1(HOLDER)) },
        },
      ),
    );
    refs.DocumentVerification = [document.id];
    const liveness = await call('POST', '/verifications/liveness/session', { userId: USER });
    refs.LivenessSession = [liveness.id];
    refs.LivenessSessionToken = [liveness.sessionToken];
    // a reference selfie and a challenge's photo: files, face readings and descriptions
    const p = await poses();
    await call(
      'POST',
      '/verifications/liveness/reference-selfie',
      form({ sessionToken: liveness.sessionToken }, { selfie: { bytes: p.frontal } }),
    );
    const challenge = liveness.challenges.find((c: { type: string }) => c.type !== 'SMILE');
    const photo = passingPhotos(p)[challenge.type as keyof ReturnType<typeof passingPhotos>][0];
    await call(
      'POST',
      '/verifications/liveness/challenge',
      form({ sessionToken: liveness.sessionToken, challengeId: challenge.id }, { photo: { bytes: photo } }),
    );
    const man = (await portrait('man')).toString('base64');
    refs.BiometricDedupCheck = [(await call('POST', '/biometrics/dedup/check', { userId: USER, selfieBase64: man })).id];
    const twin = await call('POST', '/biometrics/dedup/check', { userId: 'twin-before', selfieBase64: man, enroll: false });
    expect(twin).toMatchObject({ status: 'DUPLICATE', matches: [expect.objectContaining({ matchedUserId: USER })] });
    refs.CognitiveKycCheck = [
      (
        await call('POST', '/cognitive-kyc/verify', {
          userId: USER,
          selfieBase64: (await selfie('woman')).toString('base64'),
          documentBase64: (await passportPage(HOLDER, woman)).toString('base64'),
        })
      ).id,
    ];
    const screening = await eventually(async () => {
      const res = await call('POST', '/screening/aml', {
        userId: USER,
        fullName: NAME,
        dateOfBirth: HOLDER.dateOfBirth,
        nationality: 'NG',
      });
      return res.matches?.length ? res : null;
    });
    refs.AmlScreening = [screening.id];
    refs.AmlMatch = [screening.matches[0].id];
    refs.WatchlistSubscription = [
      (await call('POST', '/monitoring/watchlist/subscribe', { userId: USER, fullName: NAME, dateOfBirth: HOLDER.dateOfBirth })).id,
    ];
    const device = await call('POST', '/intelligence/device/fingerprint', {
      userId: USER,
      sessionId: 'session-77',
      fingerprint: { userAgent: USER_AGENT, platform: 'Linux armv8l', timezone: 'Africa/Lagos', language: 'en-NG' },
      ip: DEVICE_IP,
    });
    refs.DeviceAssessment = [device.id, device.deviceId];
    refs.IpAnalysis = [(await call('POST', '/intelligence/ip', { ip: CHECKED_IP, userId: USER })).id];
    const phone = await call('POST', '/verifications/phone', { phoneNumber: PHONE, userId: USER });
    refs.PhoneVerification = [phone.id];
    await call('POST', `/verifications/phone/${phone.id}/verify`, { code: '123456' });
    refs.EmailVerification = [(await call('POST', '/verifications/email', { email: EMAIL, userId: USER })).id];
    const mobileMoney = await call('POST', '/verifications/mobile-money', {
      userId: USER,
      phoneNumber: '+233241234567',
      provider: 'MTN_MOMO',
      country: 'GH',
      expectedName: NAME,
    });
    refs.MobileMoneyVerification = [mobileMoney.id];
    if (mobileMoney.accountHolder) NEEDLES.push(mobileMoney.accountHolder);
    const address = await call(
      'POST',
      '/verifications/address',
      form(
        { userId: USER, documentType: 'UTILITY_BILL', country: 'NG', expectedAddress: `${STREET}, Ikoyi, Lagos` },
        { document: { bytes: await electricityBill(`${HOLDER.givenNames} ${HOLDER.surname}`, [STREET, 'Ikoyi, Lagos'], daysAgo(12)) } },
      ),
    );
    refs.AddressVerification = [address.id];
    const business = await call('POST', '/verifications/business', {
      userId: USER,
      businessName: BUSINESS,
      registrationNumber: REGISTRATION,
      country: 'NG',
      businessType: 'LLC',
    });
    refs.BusinessVerification = [business.id];
    await call('POST', `/verifications/business/${business.id}/directors`, {
      directors: [
        { fullName: NAME, role: 'Managing Director', dateOfBirth: HOLDER.dateOfBirth, nationality: 'NG', idNumber: HOLDER.documentNumber },
      ],
    });

    // risk: the user's account profile and a transaction of theirs (device, IP, names in the metadata)
    refs.RiskAccount = ['wallet-7781'];
    await gql(`mutation($input: SetRiskAccountProfileInput!) { setRiskAccountProfile(input: $input) { userErrors { message } } }`, {
      input: { accountId: 'wallet-7781', userId: USER, fullName: NAME, dateOfBirth: HOLDER.dateOfBirth, nationality: 'NG' },
    });
    refs.RiskEvaluation = [
      (
        await call('POST', '/evaluate', {
          transaction_id: 'tx-halima-1',
          amount: 4200,
          currency: 'NGN',
          sender: 'wallet-7781',
          receiver: 'shop-12',
          metadata: { device_id: 'zubeiru-device-1', ip: RISK_IP, sender_name: NAME, receiver_name: 'Corner Shop' },
        })
      ).evaluation_id,
    ];

    // notify: the user's recipient profile and a message rendered with their name
    await call('POST', '/templates', {
      name: 'welcome',
      channels: { email: { subject: 'Hello {{name}}', html: '<p>Welcome {{name}}</p>' } },
    });
    refs.NotificationTemplate = ['welcome'];
    await call('PUT', `/recipients/${USER}`, { email: EMAIL, phone: PHONE });
    refs.NotificationRecipient = [USER];
    refs.Notification = [
      (await call('POST', '/send', { to: USER, template: 'welcome', channels: ['email'], data: { name: NAME } })).notification_id,
    ];

    // someone else, whose records must come through untouched
    await call('POST', '/verifications/identity', { userId: KEEPER });
    await call('PUT', `/recipients/${KEEPER}`, { email: 'keeper@example.com' });
    await call('POST', '/intelligence/ip', { ip: '41.90.1.2', userId: KEEPER });

    // the background work is done: checks decided, messages rendered, webhooks delivered
    await settled(`/verifications/document/${document.id}`, ['PENDING', 'PROCESSING']);
    await settled(`/verifications/address/${address.id}`, ['PROCESSING']);
    await eventually(async () => {
      const { sandboxMessages } = await gql(`{ sandboxMessages(first: 50) { nodes { html } } }`);
      return sandboxMessages.nodes.some((m: { html: string | null }) => m.html?.includes(NAME));
    }, 20_000);
    await eventually(async () => receiver.received.some((r) => r.body.includes('document.')), 20_000);
    refs.WebhookDelivery = [
      (
        await gql(`query($id: ID!) { webhookDeliveries(filter: { webhookId: $id }) { nodes { id event } } }`, { id: refs.Webhook[0] })
      ).webhookDeliveries.nodes.find((d: { event: string }) => d.event.startsWith('DOCUMENT_')).id,
    ];

    // what is sealed: face descriptions, what was read from the document, the enrolled face, the addresses, dates of birth
    const { rows: sealed } = await db.query<{ v: string }>(
      `select v from (
         select unnest(array[extracted_data_sealed, face_embedding_sealed]) as v from verification.document_verifications where user_id = $1
         union all select unnest(array[document_fields_sealed, selfie_embedding_sealed]) from verification.cognitive_kyc_checks where user_id = $1
         union all select unnest(array[reference_sealed, frames_sealed]) from verification.liveness_sessions where user_id = $1
         union all select embedding_sealed from verification.biometric_enrollments where user_id = $1
         union all select address_sealed from verification.otp_verifications where user_id = $1
         union all select date_of_birth_sealed from verification.aml_screenings where user_id = $1
         union all select unnest(array[email_sealed, phone_sealed]) from notify.recipients where id = $1) s where v is not null`,
      [USER],
    );
    sealedNeedles.push(...sealed.map((r) => r.v));
    expect(sealedNeedles.length).toBeGreaterThanOrEqual(10);
    userFiles = (
      await db.query<{ id: string }>(`select id from platform.files where owner_id = any($1::text[])`, [
        [document.id, liveness.id, address.id],
      ])
    ).rows.map((r) => r.id);
    expect(userFiles.length).toBeGreaterThanOrEqual(4);
    expect(filesIn(storageDir)).toEqual(expect.arrayContaining(userFiles));
    // the scan sees the user's values where they are before the erasure (it would see a leak after)
    const before = new Set((await leaksInTables([...NEEDLES, ...sealedNeedles])).map((l) => l.column));
    expect([...before]).toEqual(
      expect.arrayContaining([
        'verification.document_verifications.extracted_data_sealed',
        'verification.document_verifications.face_embedding_sealed',
        'verification.biometric_enrollments.embedding_sealed',
        'verification.aml_screenings.full_name',
        'verification.otp_verifications.address_sealed',
        'verification.device_assessments.ip',
        'risk.account_profiles.full_name',
        'risk.evaluations.metadata',
        'notify.recipients.email_sealed',
        'notify.sandbox_messages.html',
        'platform.deliveries.body',
        'platform.outbox_events.payload',
      ]),
    );
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    await stack?.stop();
    if (storageDir) rmSync(storageDir, { recursive: true, force: true });
  });

  it('exports everything held about the user as one document, files by link served to the organization only', async () => {
    const exported = await call('GET', `/privacy/users/${USER}/export`);
    expect(exported).toMatchObject({ userId: USER, exportedAt: expect.any(String) });
    const { verification, risk, notify } = exported;
    expect(verification.documents[0].extractedData).toMatchObject({ documentNumber: HOLDER.documentNumber });
    expect(verification.documents[0].faceEmbedding).toBeUndefined();
    expect(verification.amlScreenings.map((s: any) => s.fullName)).toContain(NAME);
    expect(verification.phoneVerifications[0]).toMatchObject({ phoneNumber: PHONE, status: 'VERIFIED' });
    expect(verification.deviceAssessments[0].fingerprint.userAgent).toBe(USER_AGENT);
    expect(verification.businessVerifications[0]).toMatchObject({ businessName: BUSINESS, directors: [{ fullName: NAME }] });
    expect(verification.biometrics).toEqual(expect.arrayContaining([{ enrollment: expect.objectContaining({ userId: USER }) }]));
    expect(risk.accounts).toEqual([expect.objectContaining({ accountId: 'wallet-7781', fullName: NAME })]);
    expect(risk.evaluations[0].metadata).toMatchObject({ sender_name: NAME });
    expect(notify.recipient).toMatchObject({ id: USER, email: EMAIL, phone: PHONE });
    expect(notify.notifications.map((n: any) => n.data)).toContainEqual({ name: NAME });
    expect(notify.sandboxMessages.some((m: any) => m.html?.includes(NAME))).toBe(true);

    // the files: links the organization may follow, nobody else
    const links = [
      verification.documents[0].frontImageUrl,
      verification.documents[0].backImageUrl,
      verification.addressVerifications[0].documentImageUrl,
      ...verification.livenessSessions[0].photos.map((p: { url: string }) => p.url),
    ];
    expect(links).toHaveLength(userFiles.length);
    const other = await stack.createClient({ name: 'another organization', service: 'all', environment: 'test' });
    for (const link of links) {
      expect((await stack.rest('GET', link, undefined, h)).status).toBe(200);
      expect((await stack.rest('GET', link, undefined, { authorization: `Bearer ${other.apiKey}` })).status).toBe(404);
    }
    // the other organization's export of the same user id holds nothing
    const theirs = (await stack.rest('GET', `/privacy/users/${USER}/export`, undefined, { authorization: `Bearer ${other.apiKey}` })).body;
    expect(Object.values(theirs.verification).flat()).toEqual([]);
    // a key without the privacy permission may not export
    const narrow = await stack.createClient({
      name: 'no privacy',
      permissions: ['identity'],
      environment: 'test',
      organizationId: other.organizationId,
    });
    expect((await stack.rest('GET', `/privacy/users/${USER}/export`, undefined, { 'x-api-key': narrow.apiKey })).status).toBe(403);
  });

  it('erases every service’s part through the outbox, tells subscribers and webhooks, and redelivers nothing personal', async () => {
    // the webhooks' receiver again, on the port they were configured with (receivers close after each test)
    receiver = await startReceiver(cert, () => 200, Number(new URL(receiver.url).port));
    const events = stack.subscribe(
      `subscription($u: String!) { userErasureUpdatedForUser(userId: $u) { type node { id status } } }`,
      { u: USER },
      h,
    );
    await events.ready;
    const requested = await stack.rest('POST', '/privacy/erasures', { userId: USER }, h);
    expect(requested.status).toBe(202);
    expect(requested.body).toMatchObject({ userId: USER, status: 'PENDING' });
    refs.UserErasure = [requested.body.id];
    // asking again while it runs returns the same erasure
    const again = await gql(`mutation($u: String!) { eraseUser(input: { userId: $u }) { created userErasure { id } } }`, { u: USER });
    expect(again.eraseUser).toEqual({ created: false, userErasure: { id: requested.body.id } });

    const erased = await eventually(async () => {
      const seen = events.events.map((e) => e.data?.userErasureUpdatedForUser.type);
      return seen.includes('USER_ERASED') ? seen : null;
    }, 30_000);
    expect(erased[0]).toBe('USER_ERASURE_REQUESTED');
    await events.close();

    const erasure = await call('GET', `/privacy/erasures/${requested.body.id}`);
    expect(erasure.status).toBe('COMPLETED');
    const parts = Object.fromEntries(erasure.services.map((s: any) => [s.service, s]));
    expect(Object.keys(parts).sort()).toEqual(['NOTIFY', 'RISK', 'VERIFICATION']);
    const counts = (service: string) => Object.fromEntries(parts[service].erased.map((e: any) => [e.kind, e.count]));
    // two screenings: the user's own and their business director's (them too)
    expect(counts('VERIFICATION')).toMatchObject({ identityVerifications: 1, documents: 1, livenessSessions: 1, amlScreenings: 2 });
    expect(counts('RISK')).toMatchObject({ accountProfiles: 1, evaluations: 1 });
    expect(counts('NOTIFY').recipientProfiles).toBe(1);
    // the OTP message to the number and the welcome mail to the profile
    expect(counts('NOTIFY').notifications).toBeGreaterThanOrEqual(2);

    const webhook = await eventually(async () => receiver.received.find((r) => JSON.parse(r.body).event === 'user.erased'), 20_000);
    expect(JSON.parse(webhook.body).data).toMatchObject({ erasureId: requested.body.id, userId: USER, status: 'COMPLETED' });

    // a webhook redelivery of an event about the user sends nothing of them again
    const before = receiver.received.length;
    const redeliver = await gql(`mutation($id: ID!) { redeliverWebhook(input: { deliveryId: $id }) { userErrors { message } } }`, {
      id: refs.WebhookDelivery[0],
    });
    expect(redeliver.redeliverWebhook.userErrors).toEqual([]);
    await receiver.requests(before + 1);
    const redelivered = JSON.parse(receiver.received[before].body);
    expect(redelivered).toMatchObject({ event: expect.stringMatching(/^document\./), data: { erased: true } });
    expect(found(redelivered)).toEqual([]);
  });

  it('leaves no personal value in any column of any table (text, JSON, bytes, addresses)', async () => {
    expect(await leaksInTables([...NEEDLES, ...sealedNeedles])).toEqual([]);
    // the user id itself stays only with the erasure (its record, its events and the user.erased webhook)
    // and in the audit trail (append-only: who viewed, decided, exported and erased, never the data)
    const mentions = await leaksInTables([USER]);
    expect([...new Set(mentions.map((m) => m.column))].sort()).toEqual([
      'platform.audit_entries.resource_id',
      'platform.audit_entries.user_id',
      'platform.deliveries.body',
      'platform.outbox_events.payload',
      'platform.outbox_events.snapshot',
      'platform.outbox_events.user_id',
      'platform.user_erasures.user_id',
    ]);
    const { rows: events } = await db.query(`select distinct resource_type from platform.outbox_events where user_id = $1`, [USER]);
    expect(events).toEqual([{ resource_type: 'user_erasure' }]);
    const { rows: deliveries } = await db.query(`select distinct event from platform.deliveries where body like $1`, [`%"${USER}"%`]);
    expect(deliveries).toEqual([{ event: 'user.erased' }]);
  });

  it('deletes the user’s files from the file store and stops serving them', async () => {
    const left = filesIn(storageDir);
    expect(left.filter((f) => userFiles.includes(f))).toEqual([]);
    for (const id of userFiles) expect((await stack.rest('GET', `/files/${id}`, undefined, h)).status).toBe(404);
  });

  it('keeps the decisions without the person: statuses, timestamps and the fact of an AML hit', async () => {
    const { documentVerification, amlScreening, mobileMoneyVerification, identityVerification, riskEvaluation } = await gql(
      `query($doc: ID!, $aml: ID!, $mm: ID!, $iv: ID!, $ev: ID!) {
        documentVerification(id: $doc) { userId status reasons checkedAt extractedData { fullName } frontImageUrl imagesDeletedAt }
        amlScreening(id: $aml) { userId status matchCount fullName matches { hit { matchedName score } } }
        mobileMoneyVerification(id: $mm) { userId status phoneNumber accountHolder }
        identityVerification(id: $iv) { userId overallStatus }
        riskEvaluation(id: $ev) { action score transaction { metadata } }
      }`,
      {
        doc: refs.DocumentVerification[0],
        aml: refs.AmlScreening[0],
        mm: refs.MobileMoneyVerification[0],
        iv: refs.IdentityVerification[0],
        ev: refs.RiskEvaluation[0],
      },
    );
    expect(documentVerification).toMatchObject({ extractedData: null, frontImageUrl: null, imagesDeletedAt: expect.any(String) });
    expect(documentVerification.status).not.toBe('PENDING');
    expect(documentVerification.checkedAt).toEqual(expect.any(String));
    expect(amlScreening).toMatchObject({
      status: 'POTENTIAL_MATCH',
      matchCount: 1,
      fullName: null,
      matches: [{ hit: { matchedName: 'Halima Zubairu' } }],
    });
    expect(mobileMoneyVerification).toMatchObject({ phoneNumber: null, accountHolder: null });
    // one pseudonym for all of the user's kept records, not their id
    const pseudonym = documentVerification.userId;
    expect(pseudonym).toMatch(/^erased:/);
    expect([amlScreening.userId, mobileMoneyVerification.userId, identityVerification.userId]).toEqual([pseudonym, pseudonym, pseudonym]);
    expect(riskEvaluation.transaction.metadata).toEqual({});
  });

  it('gives nothing back through any REST route, GraphQL query or the export', async () => {
    const leaks: string[] = [];
    const answered: string[] = [];
    const reads = [
      ...restRequests()
        .filter((r) => r.route.method === 'GET')
        .map((request) => async () => {
          const res = await stack.rest('GET', restCall(request, refs).url, undefined, h);
          return { what: `GET ${request.route.path}`, ok: res.status === 200, body: res.body };
        }),
      ...graphqlRequests()
        .filter((r) => r.rootType === 'Query' || r.field.name === 'exportUser')
        .map((request) => async () => {
          const { query, variables } = graphqlCall(request, refs);
          const res = await stack.gql(query, variables, h);
          return { what: request.field.name, ok: !res.body.errors && res.body.data?.[request.field.name] != null, body: res.body };
        }),
    ];
    // a few at a time: every read of the API, with the user's records where it takes ids
    for (let i = 0; i < reads.length; i += 8) {
      for (const { what, ok, body } of await Promise.all(reads.slice(i, i + 8).map((read) => read()))) {
        if (ok) answered.push(what);
        const hit = found(body);
        if (hit.length) leaks.push(`${what}: ${hit.join(', ')}`);
      }
    }
    expect(leaks).toEqual([]);
    // the reads found the kept records (the scan is not of errors and nulls)
    expect(answered).toEqual(
      expect.arrayContaining([
        'GET /verifications/document/:id',
        'GET /verifications/identity/:id',
        'GET /screening/aml/:id',
        'GET /verifications/mobile-money/:id',
        'GET /verifications/address/:id',
        'GET /verifications/business/:id',
        'GET /evaluations/:id',
        'GET /privacy/users/:userId/export',
        'documentVerification',
        'amlScreening',
        'livenessSession',
        'cognitiveKycCheck',
        'riskEvaluation',
        'notification',
        'webhookDelivery',
        'exportUser',
      ]),
    );
    expect(answered.length).toBeGreaterThan(80);

    const { user } = await gql(
      `query($id: ID!) { user(id: $id) {
        identityVerifications { totalCount } documents { totalCount } livenessSessions { totalCount } amlScreenings { totalCount }
        watchlistSubscriptions { totalCount } deviceAssessments { totalCount } ipAnalyses { totalCount } phoneVerifications { totalCount }
        emailVerifications { totalCount } mobileMoneyVerifications { totalCount } addressVerifications { totalCount }
        businessVerifications { totalCount } cognitiveKycChecks { totalCount } biometricEnrollment { enrolledAt }
        riskAccounts { nodes { id } } notificationRecipient { id } notifications { totalCount } } }`,
      { id: USER },
    );
    expect(Object.values(user).every((v: any) => v === null || v.totalCount === 0 || v.nodes?.length === 0)).toBe(true);

    const exported = await call('GET', `/privacy/users/${USER}/export`);
    expect(exported.userId).toBe(USER);
    expect(Object.values(exported.verification).every((records) => (records as unknown[]).length === 0)).toBe(true);
    expect(exported.risk).toEqual({ accounts: [], evaluations: [], devicesAndIps: [] });
    expect(exported.notify).toEqual({ recipient: null, notifications: [], sandboxMessages: [] });
  });

  it('matches the erased face with no one, and leaves another user’s data as it was', async () => {
    const again = await call('POST', '/biometrics/dedup/check', {
      userId: 'twin-after',
      selfieBase64: (await portrait('man')).toString('base64'),
      enroll: false,
    });
    expect(again).toMatchObject({ status: 'UNIQUE', matchFound: false });
    const { user } = await gql(
      `query($id: ID!) { user(id: $id) { identityVerifications { totalCount } ipAnalyses { nodes { ip } } notificationRecipient { email } } }`,
      {
        id: KEEPER,
      },
    );
    expect(user).toEqual({
      identityVerifications: { totalCount: 1 },
      ipAnalyses: { nodes: [{ ip: '41.90.1.2' }] },
      notificationRecipient: { email: 'keeper@example.com' },
    });
  });
});
