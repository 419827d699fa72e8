import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { eventually, startTestStack, type TestStack } from './support/stack.js';
import { filesIn } from './support/files.js';
import { idCardBack, idCardFront, td1, AMINA } from './support/documents.js';
import { portrait } from './support/faces.js';
import { form } from './support/liveness.js';
import { poses } from './support/poses.js';
import { daysAgo, electricityBill } from './support/bills.js';
import { selfSignedCertificate, startReceiver } from './support/https-receiver.js';

/**
 * Retention (issue 16): each organization's periods, enforced by every service's scheduled sweep.
 * Records are made through the API, then aged in the database (the clock the sweep reads is the
 * records' own timestamps): one just past its period, one just inside it, per kind. After a sweep
 * that started after the ageing, exactly the ones past their period lost their data, in the
 * database and in the file store; another organization with the default periods lost nothing.
 */
const cert = selfSignedCertificate();

const PERIODS = { documentsDays: 30, livenessFramesDays: 7, notificationBodiesDays: 10, providerResponsesDays: 20, eventPayloadsDays: 5 };

describe('retention periods enforced by the scheduled sweep', () => {
  let stack: TestStack;
  let db: pg.Pool;
  let storageDir: string;
  let h: Record<string, string>;
  let other: Record<string, string>;
  /** Per kind, the record past its period and the one inside it (and the default organization's old one). */
  const made: Record<string, { old: string; fresh: string; defaults?: string }> = {};

  const call = async (headers: Record<string, string>, method: string, url: string, body?: unknown) => {
    const res = await stack.rest(method, url, body, headers);
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const gql = async (query: string, variables: Record<string, unknown> = {}, headers = h) => {
    const res = await stack.gql(query, variables, headers);
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return res.body.data;
  };
  /** Makes a record's row (and what hangs off it) `days` old. */
  const age = (table: string, id: string, days: number, extra = '') =>
    db.query(`update ${table} set created_at = now() - make_interval(days => $2)${extra} where id = $1`, [id, days]);

  beforeAll(async () => {
    storageDir = mkdtempSync(path.join(tmpdir(), 'retention-files-'));
    stack = await startTestStack(
      { STORAGE_DIR: storageDir, RETENTION_SWEEP_MS: '300', LIVENESS_SWEEP_MS: '200', WEBHOOK_RETRY_DELAYS: '1' },
      { webhookCa: cert.cert },
    );
    db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
    const client = await stack.createClient({ name: 'retention', service: 'all', environment: 'test' });
    h = { authorization: `Bearer ${client.apiKey}` };
    other = { authorization: `Bearer ${(await stack.createClient({ name: 'defaults', service: 'all', environment: 'test' })).apiKey}` };
    const receiver = await startReceiver(cert);
    await call(h, 'POST', '/webhooks/configure', {
      clientId: client.id,
      callbackUrl: receiver.url,
      events: ['mobile_money.verified', 'mobile_money.failed'],
    });

    const woman = await portrait('woman');
    const document = async (headers: Record<string, string>, userId: string) =>
      (
        await call(
          headers,
          'POST',
          '/verifications/document',
          form(
            { userId, documentType: 'ID_CARD', documentCountry: 'KE' },
            { frontImage: { bytes: await idCardFront(AMINA, woman) }, backImage: { bytes: await idCardBack(td1(AMINA)) } },
          ),
        )
      ).id;
    made.documents = { old: await document(h, 'd-old'), fresh: await document(h, 'd-fresh'), defaults: await document(other, 'd-default') };
    const bill = await electricityBill('AMINA WANJIKU', ['12 Riverside Drive', 'Nairobi'], daysAgo(10));
    const address = async (userId: string) =>
      (
        await call(
          h,
          'POST',
          '/verifications/address',
          form({ userId, documentType: 'UTILITY_BILL', country: 'KE' }, { document: { bytes: bill } }),
        )
      ).id;
    made.addresses = { old: await address('a-old'), fresh: await address('a-fresh') };
    const frontal = (await poses()).frontal;
    const liveness = async (userId: string) => {
      const session = await call(h, 'POST', '/verifications/liveness/session', { userId });
      await call(
        h,
        'POST',
        '/verifications/liveness/reference-selfie',
        form({ sessionToken: session.sessionToken }, { selfie: { bytes: frontal } }),
      );
      return session.id;
    };
    made.liveness = { old: await liveness('l-old'), fresh: await liveness('l-fresh') };
    await call(h, 'POST', '/templates', { name: 'note', channels: { email: { subject: 'Note', html: '<p>Dear {{name}}</p>' } } });
    const send = async (name: string) =>
      (await call(h, 'POST', '/send', { to: `${name}@example.com`, template: 'note', channels: ['email'], data: { name } }))
        .notification_id;
    made.notifications = { old: await send('n-old'), fresh: await send('n-fresh') };
    const wallet = async (userId: string) =>
      (
        await call(h, 'POST', '/verifications/mobile-money', {
          userId,
          phoneNumber: '+233241234567',
          provider: 'MTN_MOMO',
          country: 'GH',
          expectedName: 'Kwame Mensah',
        })
      ).id;
    made.wallets = { old: await wallet('m-old'), fresh: await wallet('m-fresh') };
    const business = async (userId: string) =>
      (
        await call(h, 'POST', '/verifications/business', {
          userId,
          businessName: `${userId} Traders`,
          registrationNumber: `PVT-${userId}`,
          country: 'KE',
        })
      ).id;
    made.businesses = { old: await business('b-old'), fresh: await business('b-fresh') };

    // what is made in the background is there: checks decided, the registry asked, messages rendered, webhooks delivered
    await eventually(async () => {
      const { rows } = await db.query(
        `select (select count(*) from verification.document_verifications where status in ('PENDING', 'PROCESSING'))
              + (select count(*) from verification.address_verifications where status = 'PROCESSING')
              + (select count(*) from verification.business_verifications where registry_data is null)
              + (select count(*) from notify.notifications where processed_at is null)
              + (select count(*) from platform.deliveries where status = 'PENDING') as busy`,
      );
      return Number(rows[0].busy) === 0;
    }, 90_000);
    const { rows: deliveries } = await db.query<{ id: string; created_at: Date }>(`select id from platform.deliveries order by created_at`);
    made.deliveries = { old: deliveries[0].id, fresh: deliveries[1].id };
    await receiver.close();
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    await stack?.stop();
    if (storageDir) rmSync(storageDir, { recursive: true, force: true });
  });

  it('sets and reads an organization’s periods; the defaults elsewhere; refuses periods out of range', async () => {
    const defaults = await call(other, 'GET', '/privacy/retention');
    expect(defaults).toMatchObject({
      documentsDays: 1825,
      livenessFramesDays: 30,
      notificationBodiesDays: 90,
      providerResponsesDays: 365,
      eventPayloadsDays: 30,
      customized: [],
      updatedAt: null,
    });
    const set = await call(h, 'PUT', '/privacy/retention', PERIODS);
    expect(set).toMatchObject({
      ...PERIODS,
      customized: ['DOCUMENTS', 'LIVENESS_FRAMES', 'NOTIFICATION_BODIES', 'PROVIDER_RESPONSES', 'EVENT_PAYLOADS'],
    });
    // absent leaves a period as it is, null puts the default back
    const { updateRetentionPolicy } = await gql(
      `mutation { updateRetentionPolicy(input: { eventPayloadsDays: null }) { retentionPolicy { eventPayloadsDays customized } userErrors { message } } }`,
    );
    expect(updateRetentionPolicy.retentionPolicy).toEqual({
      eventPayloadsDays: 30,
      customized: ['DOCUMENTS', 'LIVENESS_FRAMES', 'NOTIFICATION_BODIES', 'PROVIDER_RESPONSES'],
    });
    await call(h, 'PUT', '/privacy/retention', { eventPayloadsDays: PERIODS.eventPayloadsDays });
    expect(await call(h, 'GET', '/privacy/retention')).toMatchObject(PERIODS);
    expect(await call(other, 'GET', '/privacy/retention')).toMatchObject({ documentsDays: 1825, customized: [] });

    const refused = await stack.rest('PUT', '/privacy/retention', { documentsDays: 0, livenessFramesDays: 40_000 }, h);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toEqual([
      'documentsDays must be a whole number of days from 1 to 36500',
      'livenessFramesDays must be a whole number of days from 1 to 36500',
    ]);
  });

  it('removes exactly what is past its period, from the database and the file store', async () => {
    const filesOf = async (ownerId: string) =>
      (await db.query<{ id: string }>(`select id from platform.files where owner_id = $1 order by id`, [ownerId])).rows.map((r) => r.id);
    const files = Object.fromEntries(
      await Promise.all(
        [
          made.documents.old,
          made.documents.fresh,
          made.documents.defaults!,
          made.addresses.old,
          made.addresses.fresh,
          made.liveness.old,
          made.liveness.fresh,
        ].map(async (id) => [id, await filesOf(id)] as const),
      ),
    );
    // each period's boundary: a day past it, a day inside it (the other organization's document is past ours, inside its default)
    await age('verification.document_verifications', made.documents.old, 31);
    await age('verification.document_verifications', made.documents.fresh, 29);
    await age('verification.document_verifications', made.documents.defaults!, 31);
    await age('verification.address_verifications', made.addresses.old, 31);
    await age('verification.address_verifications', made.addresses.fresh, 29);
    await age('verification.liveness_sessions', made.liveness.old, 8, `, expires_at = now() - interval '8 days'`);
    await age('verification.liveness_sessions', made.liveness.fresh, 6, `, expires_at = now() - interval '6 days'`);
    await age('notify.notifications', made.notifications.old, 11);
    await age('notify.notifications', made.notifications.fresh, 9);
    await db.query(`update notify.sandbox_messages set created_at = now() - interval '11 days' where notification_id = $1`, [
      made.notifications.old,
    ]);
    await db.query(`update notify.sandbox_messages set created_at = now() - interval '9 days' where notification_id = $1`, [
      made.notifications.fresh,
    ]);
    await age('verification.mobile_money_verifications', made.wallets.old, 21);
    await age('verification.mobile_money_verifications', made.wallets.fresh, 19);
    await age('verification.business_verifications', made.businesses.old, 21);
    await age('verification.business_verifications', made.businesses.fresh, 19);
    await age('platform.deliveries', made.deliveries.old, 6);
    await age('platform.deliveries', made.deliveries.fresh, 4);
    const { rows: events } = await db.query<{ id: string }>(
      `select id::text from platform.outbox_events where relayed_at is not null order by id limit 2`,
    );
    await db.query(`update platform.outbox_events set created_at = now() - interval '6 days' where id = $1`, [events[0].id]);
    await db.query(`update platform.outbox_events set created_at = now() - interval '4 days' where id = $1`, [events[1].id]);
    // the liveness sweep has ended the aged sessions (retention leaves a session in progress alone)
    await eventually(async () => {
      const { rows } = await db.query(`select count(*)::int as n from verification.liveness_sessions where status = 'IN_PROGRESS'`);
      return rows[0].n === 0;
    });
    const aged = new Date();

    // every service has run a complete sweep since
    await eventually(async () => {
      const { retentionPolicy } = await gql(`{ retentionPolicy { lastEnforcedAt } }`);
      return retentionPolicy.lastEnforcedAt && new Date(retentionPolicy.lastEnforcedAt) > aged;
    }, 20_000);

    const { documents, addresses } = await gql(
      `{
        documents: documentVerifications(first: 10) { nodes { id frontImageUrl backImageUrl imagesDeletedAt extractedData { fullName } status } }
        addresses: addressVerifications(first: 10) { nodes { id documentImageUrl documentDeletedAt status } }
      }`,
    );
    const byId = <T extends { id: string }>(nodes: T[]) => Object.fromEntries(nodes.map((n) => [n.id, n]));
    const doc = byId<any>(documents.nodes);
    expect(doc[made.documents.old]).toMatchObject({ frontImageUrl: null, backImageUrl: null, imagesDeletedAt: expect.any(String) });
    // the record and what was read stay: only the images go
    expect(doc[made.documents.old].extractedData).toMatchObject({ fullName: expect.stringContaining('WANJIKU') });
    expect(doc[made.documents.fresh]).toMatchObject({ frontImageUrl: expect.stringMatching(/^\/files\//), imagesDeletedAt: null });
    const addr = byId<any>(addresses.nodes);
    expect(addr[made.addresses.old]).toMatchObject({ documentImageUrl: null, documentDeletedAt: expect.any(String) });
    expect(addr[made.addresses.fresh]).toMatchObject({ documentImageUrl: expect.stringMatching(/^\/files\//), documentDeletedAt: null });

    const stored = new Set(filesIn(storageDir));
    const gone = [made.documents.old, made.addresses.old, made.liveness.old].flatMap((id) => files[id]);
    const kept = [made.documents.fresh, made.addresses.fresh, made.liveness.fresh].flatMap((id) => files[id]);
    expect(gone.length).toBe(4);
    expect(gone.filter((f) => stored.has(f))).toEqual([]);
    expect(kept.filter((f) => !stored.has(f))).toEqual([]);
    for (const id of gone) expect((await stack.rest('GET', `/files/${id}`, undefined, h)).status).toBe(404);
    for (const id of kept) expect((await stack.rest('GET', `/files/${id}`, undefined, h)).status).toBe(200);
    // the other organization keeps its document: its default period is five years
    expect(files[made.documents.defaults!].every((f) => stored.has(f))).toBe(true);
    const { documentVerification } = await gql(
      `query($id: ID!) { documentVerification(id: $id) { frontImageUrl } }`,
      { id: made.documents.defaults },
      other,
    );
    expect(documentVerification.frontImageUrl).toEqual(expect.stringMatching(/^\/files\//));

    // liveness photos, notification bodies, provider answers: as the export shows them
    const exported = async (userId: string) => (await call(h, 'GET', `/privacy/users/${userId}/export`)) as any;
    const [lOld, lFresh] = [
      (await exported('l-old')).verification.livenessSessions[0],
      (await exported('l-fresh')).verification.livenessSessions[0],
    ];
    expect(lOld).toMatchObject({ photos: [], referenceSelfieReceived: true });
    expect(lFresh.photos).toHaveLength(1);
    // the face descriptions are sealed: the photos' going is told by when they went
    const { rows: faces } = await db.query(
      `select id, photos_deleted_at is null as kept from verification.liveness_sessions where id = any($1::uuid[])`,
      [[made.liveness.old, made.liveness.fresh]],
    );
    expect(Object.fromEntries(faces.map((r) => [r.id, r.kept]))).toEqual({ [made.liveness.old]: false, [made.liveness.fresh]: true });

    const { sandboxMessages } = await gql(`{ sandboxMessages(first: 10) { nodes { notification { id } html subject } } }`);
    const message = Object.fromEntries(sandboxMessages.nodes.map((m: any) => [m.notification.id, m]));
    expect(message[made.notifications.old]).toMatchObject({ html: null, subject: null });
    expect(message[made.notifications.fresh].html).toContain('n-fresh');
    const { rows: data } = await db.query(`select id, data from notify.notifications where id = any($1::uuid[])`, [
      [made.notifications.old, made.notifications.fresh],
    ]);
    expect(Object.fromEntries(data.map((r) => [r.id, r.data]))).toEqual({
      [made.notifications.old]: {},
      [made.notifications.fresh]: { name: 'n-fresh' },
    });

    const { old: mOld, fresh: mFresh } = made.wallets;
    const { a, b } = await gql(
      `query($a: ID!, $b: ID!) { a: mobileMoneyVerification(id: $a) { accountHolder status } b: mobileMoneyVerification(id: $b) { accountHolder status } }`,
      {
        a: mOld,
        b: mFresh,
      },
    );
    expect(a.accountHolder).toBeNull();
    expect(b.accountHolder).toEqual(expect.any(String));
    expect(a.status).toBe(b.status);
    const registry = async (userId: string) => (await exported(userId)).verification.businessVerifications[0].registryData;
    expect(await registry('b-old')).toBeNull();
    expect(await registry('b-fresh')).toEqual(expect.objectContaining({ registrationNumber: 'PVT-b-fresh' }));

    // event payloads: the old webhook delivery keeps its record without its body; the old outbox event is gone
    const { webhookDeliveries } = await gql(`{ webhookDeliveries(first: 10) { nodes { id status body } } }`);
    const delivery = Object.fromEntries(webhookDeliveries.nodes.map((d: any) => [d.id, d]));
    expect(JSON.parse(delivery[made.deliveries.old].body)).toMatchObject({ data: { expired: true } });
    expect(JSON.parse(delivery[made.deliveries.fresh].body).data).toHaveProperty('verificationId');
    const { rows: left } = await db.query(`select id::text from platform.outbox_events where id = any($1::bigint[])`, [
      events.map((e) => e.id),
    ]);
    expect(left).toEqual([{ id: events[1].id }]);
  });
});
