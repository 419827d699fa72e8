import { ADMIN_SECRET, startTestStack, type TestStack } from './support/stack.js';

const PIXEL_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36';
const PHONE = {
  userAgent: PIXEL_UA,
  platform: 'Linux aarch64',
  screenResolution: '412x915',
  timezone: 'Africa/Douala',
  language: 'fr-CM',
  webgl: 'ANGLE (Qualcomm, Adreno (TM) 740, OpenGL ES 3.2)',
  canvas: 'canvas-hash-phone-1',
};
const EMULATOR = {
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; sdk_gphone_x86 Build/RSR1.201013.001) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/83.0.4103.106 Mobile Safari/537.36',
  platform: 'Linux i686',
  screenResolution: '1080x2340',
  timezone: 'Africa/Lagos',
  language: 'en-US',
  webgl: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
  canvas: 'canvas-hash-emulator',
};
const CAMEROON_IP = '41.202.207.1';
const TOR_IP = '185.220.101.1';

const DEVICE_FIELDS = `id userId sessionId deviceId firstSeen riskScore riskLevel ip ipDetected createdAt
  signals { emulator rooted vpn knownFraudDevice geoMismatch multipleAccounts deviceAge }
  location { country countryName city isp } device { browser os deviceType model } reasons { signal weight detail }`;

describe('device intelligence end to end', () => {
  let stack: TestStack;
  let h: Record<string, string>;

  const assess = (body: Record<string, unknown>, headers = h) => stack.rest('POST', '/intelligence/device/fingerprint', body, headers);

  beforeAll(async () => {
    stack = await startTestStack();
    h = { 'x-api-key': (await stack.createClient({ name: 'devices' })).apiKey };
    const tor = await stack.gql(
      `mutation { importIpFeed(input: { feed: "tor", content: "${TOR_IP}\\n" }) { ipFeed { entries } } }`,
      {},
      { 'x-admin-secret': ADMIN_SECRET },
    );
    expect(tor.body.data.importIpFeed.ipFeed.entries).toBe(1);
  });
  afterAll(() => stack?.stop());

  it('assesses a real phone: stable dfp_ id, first seen, location, no signals, LOW', async () => {
    const res = await assess({ userId: 'amina', sessionId: 's-1', fingerprint: { ...PHONE, ip: CAMEROON_IP } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      userId: 'amina',
      sessionId: 's-1',
      deviceId: expect.stringMatching(/^dfp_[0-9a-f]{32}$/),
      riskScore: 0,
      riskLevel: 'LOW',
      signals: {
        emulator: false,
        rooted: false,
        vpn: false,
        knownFraudDevice: false,
        geoMismatch: false,
        multipleAccounts: 1,
        deviceAge: '0 days',
      },
      location: { country: 'CM', countryName: 'Cameroon', isp: null },
      ip: CAMEROON_IP,
      ipDetected: false,
      device: { browser: 'Mobile Chrome', os: 'Android', deviceType: 'mobile' },
      reasons: [],
    });
    expect(res.body.firstSeen).toBe(res.body.createdAt);

    // a browser update and another account on the same phone: same device, two accounts
    const updated = { ...PHONE, userAgent: PIXEL_UA.replace('124.0.6367.82', '131.0.6778.39') };
    const second = await assess({ userId: 'amina-2', sessionId: 's-2', fingerprint: updated, ip: CAMEROON_IP });
    expect(second.body.deviceId).toBe(res.body.deviceId);
    expect(second.body.firstSeen).toBe(res.body.firstSeen);
    expect(second.body.signals.multipleAccounts).toBe(2);
    expect(second.body).toMatchObject({
      riskScore: 0.1,
      riskLevel: 'LOW',
      reasons: [{ signal: 'multipleAccounts', weight: 0.1, detail: '2 accounts seen on this device' }],
    });
    // the same user again does not count twice
    expect((await assess({ userId: 'amina', sessionId: 's-3', fingerprint: PHONE, ip: CAMEROON_IP })).body.signals.multipleAccounts).toBe(
      2,
    );

    // GET by assessment id and by device id (latest assessment)
    const byId = await stack.rest('GET', `/v1/intelligence/device/${res.body.id}`, undefined, h);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(res.body);
    const byDevice = await stack.rest('GET', `/intelligence/device/${res.body.deviceId}`, undefined, h);
    expect(byDevice.body).toMatchObject({ deviceId: res.body.deviceId, sessionId: 's-3' });
  });

  it('flags an emulator on a Tor exit: emulator, vpn, HIGH, with reasons', async () => {
    const res = await assess({ userId: 'bot-1', sessionId: 's-e', fingerprint: EMULATOR, ip: TOR_IP });
    expect(res.body.signals).toMatchObject({ emulator: true, vpn: true, rooted: false });
    expect(res.body.riskLevel).toBe('HIGH');
    expect(res.body.riskScore).toBeGreaterThanOrEqual(0.6);
    const emulator = res.body.reasons.find((r: { signal: string }) => r.signal === 'emulator');
    expect(emulator.detail).toMatch(/sdk_gphone/);
    expect(emulator.detail).toMatch(/SwiftShader/);
    expect(res.body.reasons.find((r: { signal: string }) => r.signal === 'vpn').detail).toMatch(/Tor exit/);
  });

  it('flags a time zone and language far from the IP location', async () => {
    const res = await assess({
      userId: 'traveller',
      sessionId: 's-g',
      fingerprint: { ...PHONE, canvas: 'other-phone', timezone: 'Asia/Jakarta', language: 'ru-RU', ip: CAMEROON_IP },
    });
    expect(res.body.signals.geoMismatch).toBe(true);
    const reason = res.body.reasons.find((r: { signal: string }) => r.signal === 'geoMismatch');
    expect(reason).toMatchObject({ weight: 0.15 });
    expect(reason.detail).toMatch(/Asia\/Jakarta/);
    expect(reason.detail).toMatch(/ru-RU/);
  });

  it('marks a device used by a rejected user as a known fraud device', async () => {
    const fraudster = { ...PHONE, canvas: 'canvas-fraud-phone' };
    const before = await assess({ userId: 'fraudster', sessionId: 'f-1', fingerprint: fraudster, ip: CAMEROON_IP });
    expect(before.body.signals.knownFraudDevice).toBe(false);
    const identity = await stack.rest('POST', '/verifications/identity', { userId: 'fraudster' }, h);
    await stack.rest(
      'POST',
      `/verifications/identity/${identity.body.id}/review`,
      { decision: 'REJECTED', reviewedBy: 'officer', reviewNotes: 'synthetic identity' },
      h,
    );
    const after = await assess({ userId: 'new-account', sessionId: 'f-2', fingerprint: fraudster, ip: '41.202.207.2' });
    expect(after.body.deviceId).toBe(before.body.deviceId);
    expect(after.body.signals).toMatchObject({ knownFraudDevice: true, multipleAccounts: 2 });
    expect(after.body.riskLevel).toBe('HIGH');
    // the IP the rejected user came from is now a known abuser as well
    const ip = await stack.rest('POST', '/intelligence/ip', { ip: CAMEROON_IP }, h);
    expect(ip.body.threats.isKnownAbuser).toBe(true);
  });

  it('detects the IP from the request when it is omitted', async () => {
    const viaRest = await assess({ userId: 'no-ip', sessionId: 'n-1', fingerprint: PHONE });
    expect(viaRest.body).toMatchObject({ ip: '127.0.0.1', ipDetected: true });
    const viaGraphQL = await stack.gql(
      `mutation($input: AssessDeviceInput!) { assessDevice(input: $input) { deviceAssessment { ${DEVICE_FIELDS} } userErrors { field } } }`,
      { input: { userId: 'no-ip', sessionId: 'n-2', fingerprint: PHONE } },
      { ...h, 'x-forwarded-for': CAMEROON_IP }, // from loopback, a trusted proxy (TRUSTED_PROXIES)
    );
    expect(viaGraphQL.body.data.assessDevice).toMatchObject({
      deviceAssessment: { ip: CAMEROON_IP, ipDetected: true, location: { country: 'CM' }, device: { deviceType: 'MOBILE' } },
      userErrors: [],
    });
    // 10.0.0.1 is not a trusted proxy: what it claims about the hop before it is not believed
    const spoofed = await stack.gql(
      `mutation($input: AssessDeviceInput!) { assessDevice(input: $input) { deviceAssessment { ip } userErrors { field } } }`,
      { input: { userId: 'no-ip', sessionId: 'n-3', fingerprint: PHONE } },
      { ...h, 'x-forwarded-for': `${CAMEROON_IP}, 10.0.0.1` },
    );
    expect(spoofed.body.data.assessDevice.deviceAssessment.ip).toBe('10.0.0.1');
  });

  it('validates: 400 for missing or mistyped fields, 422 for invalid values', async () => {
    const missing = await assess({ userId: 'v' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toEqual(expect.arrayContaining(['sessionId is required', 'fingerprint is required']));
    expect((await assess({ userId: 'v', sessionId: 's', fingerprint: 'abc' })).status).toBe(400);
    expect((await assess({ userId: 'v', sessionId: 's', fingerprint: { userAgent: 42 } })).status).toBe(400);
    const empty = await assess({ userId: 'v', sessionId: 's', fingerprint: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.message[0]).toMatch(/at least one of/);
    const badTz = await assess({ userId: 'v', sessionId: 's', fingerprint: { ...PHONE, timezone: 'Mars/Olympus' } });
    expect(badTz.status).toBe(422);
    expect(badTz.body.message).toEqual(['fingerprint.timezone must be an IANA time zone (e.g. Africa/Lagos)']);
    expect((await assess({ userId: 'v', sessionId: 's', fingerprint: { ...PHONE, ip: '300.1.1.1' } })).status).toBe(422);
    expect((await assess({ userId: '', sessionId: 's', fingerprint: PHONE })).status).toBe(422);
    // GraphQL answers the same mistakes as user errors naming the field
    const invalid = await stack.gql(
      `mutation($input: AssessDeviceInput!) { assessDevice(input: $input) { deviceAssessment { id } userErrors { field code message } } }`,
      { input: { userId: 'v', sessionId: 's', fingerprint: { ...PHONE, timezone: 'Mars/Olympus', ip: '300.1.1.1' } } },
      h,
    );
    expect(invalid.body.data.assessDevice).toEqual({
      deviceAssessment: null,
      userErrors: [
        {
          field: ['input', 'fingerprint', 'timezone'],
          code: 'VALIDATION_FAILED',
          message: 'fingerprint.timezone must be an IANA time zone (e.g. Africa/Lagos)',
        },
        { field: ['input', 'fingerprint', 'ip'], code: 'VALIDATION_FAILED', message: expect.stringMatching(/^fingerprint\.ip: /) },
      ],
    });
    // members beyond the spec's (SDKs send more) are ignored by the REST form
    expect(
      (await assess({ userId: 'v', sessionId: 's', fingerprint: { ...PHONE, colorDepth: 24, hardwareConcurrency: 8 }, ip: CAMEROON_IP }))
        .status,
    ).toBe(200);
  });

  it('keeps devices per organization: ids differ and reads are 404 elsewhere', async () => {
    const mine = await assess({ userId: 'amina', sessionId: 'o-1', fingerprint: PHONE, ip: CAMEROON_IP });
    const other = { 'x-api-key': (await stack.createClient({ name: 'other org' })).apiKey };
    const theirs = await assess({ userId: 'amina', sessionId: 'o-2', fingerprint: PHONE, ip: CAMEROON_IP }, other);
    expect(theirs.body.deviceId).not.toBe(mine.body.deviceId);
    expect(theirs.body.signals.multipleAccounts).toBe(1);
    expect((await stack.rest('GET', `/intelligence/device/${mine.body.id}`, undefined, other)).status).toBe(404);
    expect((await stack.rest('GET', `/intelligence/device/${mine.body.deviceId}`, undefined, other)).status).toBe(404);
    expect((await stack.rest('GET', '/intelligence/device/not-an-id', undefined, h)).status).toBe(404);
    const byUser = await stack.gql(
      `{ deviceAssessments(filter: { userId: "amina" }, first: 2) { totalCount nodes { userId } pageInfo { hasNextPage } } }`,
      {},
      h,
    );
    expect(byUser.body.data.deviceAssessments).toEqual({
      totalCount: 3,
      nodes: [{ userId: 'amina' }, { userId: 'amina' }],
      pageInfo: { hasNextPage: true },
    });
    const lookup = `query($id: ID!) { deviceAssessment(id: $id) { id deviceId } }`;
    expect((await stack.gql(lookup, { id: mine.body.deviceId }, h)).body.data.deviceAssessment).toMatchObject({
      deviceId: mine.body.deviceId,
    });
    expect((await stack.gql(lookup, { id: mine.body.id }, other)).body.data.deviceAssessment).toBeNull();
    expect((await stack.gql(lookup, { id: mine.body.deviceId }, other)).body.data.deviceAssessment).toBeNull();
  });
});
