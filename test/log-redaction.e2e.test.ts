import { createTestDatabase, eventually } from './support/stack.js';
import { startStackProcess, type StackProcess } from './support/stack-process.js';
import { AT_API_KEY, AT_USERNAME, startAfricasTalking } from './support/notify-fakes.js';
import { listIndividuals } from './support/lists.js';
import { AMINA, idCardForm } from './support/documents.js';
import { portrait } from './support/faces.js';

/**
 * No personal data in the logs: the whole stack runs as `npm start` does (one OS process, logging
 * at `trace`), representative traffic of every kind of personal value goes through it — names,
 * phone numbers, e-mail addresses, dates of birth, document numbers, addresses, through
 * verification, screening, mobile money, risk and notify, live SMS provider included, mistakes
 * included — and the captured output is then scanned for every one of those values.
 */
const PERSON = {
  name: 'Zawadi Nyambura Kamau',
  phone: '+254711000123',
  email: 'zawadi.kamau@example.org',
  dateOfBirth: '1991-07-14',
  address: '14 Moi Avenue, Nairobi',
  momoPhone: '+233241234567',
  momoName: 'Kwame Mensah',
  listed: 'Baraka Odhiambo Otieno',
};
/** Every way a value may be written: as given, and a phone number without its plus. */
const needles = [
  ...Object.values(PERSON),
  PERSON.phone.slice(1),
  PERSON.momoPhone.slice(1),
  AMINA.documentNumber,
  'AMINA GRACE',
  'WANJIKU',
  '1984-02-29',
];

describe('no personal data in the logs and metrics of a whole run', () => {
  let stack: StackProcess;
  let at: Awaited<ReturnType<typeof startAfricasTalking>>;
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string>) => {
    const form = body instanceof FormData;
    const res = await fetch(stack.urls.rest + path, {
      method,
      headers: { ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const admin = { 'x-admin-secret': 'log-redaction-admin-secret' };

  beforeAll(async () => {
    at = await startAfricasTalking();
    const databaseUrl = await createTestDatabase();
    // a list to screen against, loaded before the process starts
    await listIndividuals(databaseUrl, [PERSON.listed]);
    stack = await startStackProcess({
      databaseUrl,
      env: {
        LOG_LEVEL: 'trace',
        METRICS_TOKEN: 'log-redaction-metrics-token',
        ADMIN_SECRET: admin['x-admin-secret'],
        SMS_API_URL: at.url,
        SMS_API_KEY: AT_API_KEY,
        SMS_USERNAME: AT_USERNAME,
        SMS_SENDER_ID: 'SHOP',
        NOTIFY_RETRY_DELAYS: '0.2,0.2',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await at?.close();
  });

  it('runs verification, screening, mobile money, risk and notify traffic with personal data, and no value reaches a log line or a metric', async () => {
    const client = async (input: Record<string, unknown>) => {
      const res = await call('POST', '/admin/api-clients', { name: 'logs', ...input }, admin);
      expect(res.status).toBe(201);
      return res.body as { apiKey: string; organizationId: string };
    };
    const verification = await client({});
    const v = { 'x-api-key': verification.apiKey };
    const sandbox = { 'x-api-key': (await client({ environment: 'test', organizationId: verification.organizationId })).apiKey };
    const risk = { authorization: `Bearer ${(await client({ service: 'risk', organizationId: verification.organizationId })).apiKey}` };
    const notify = { authorization: `Bearer ${(await client({ service: 'notify', organizationId: verification.organizationId })).apiKey}` };

    // phone (a live SMS through the provider) and e-mail codes, a wrong code, a malformed number
    const phone = await call('POST', '/v1/verifications/phone', { phoneNumber: PERSON.phone, userId: 'log-user', channel: 'SMS' }, v);
    expect(phone.status).toBe(201);
    await eventually(async () => (at.requests.length > 0 ? true : null));
    expect((await call('POST', `/v1/verifications/phone/${phone.body.id}/verify`, { code: '000000' }, v)).body.attemptsRemaining).toBe(2);
    expect((await call('POST', '/v1/verifications/phone', { phoneNumber: `${PERSON.phone}99999`, userId: 'log-user' }, v)).status).toBe(
      400,
    );
    expect((await call('POST', '/v1/verifications/email', { email: PERSON.email, userId: 'log-user' }, v)).status).toBe(201);
    // AML screening of a listed person and of our user, with dates of birth
    const listed = await call('POST', '/screening/aml', { userId: 'log-listed', fullName: PERSON.listed, lists: ['SANCTIONS'] }, v);
    expect(listed.body.status).toBe('POTENTIAL_MATCH');
    const aml = await call('POST', '/screening/aml', { userId: 'log-user', fullName: PERSON.name, dateOfBirth: PERSON.dateOfBirth }, v);
    expect(aml.status).toBe(200);
    // a document read by OCR (name, number, date of birth)
    const form = await idCardForm('log-user', await portrait('woman'));
    const document = await call('POST', '/v1/verifications/document', form, v);
    expect(document.status).toBe(201);
    await eventually(async () => {
      const res = await call('GET', `/v1/verifications/document/${document.body.id}`, undefined, v);
      return ['PENDING', 'PROCESSING'].includes(res.body.status) ? null : res.body;
    }, 60_000);
    // mobile money with the expected holder's name
    const momo = await call(
      'POST',
      '/v1/verifications/mobile-money',
      { userId: 'log-user', phoneNumber: PERSON.momoPhone, provider: 'MTN_MOMO', country: 'GH', expectedName: PERSON.momoName },
      sandbox,
    );
    expect(momo.status).toBe(200);
    // a transaction between two people named in its metadata
    const evaluated = await call(
      'POST',
      '/v1/evaluate',
      {
        transaction_id: 'log-tx-1',
        amount: 25000,
        currency: 'KES',
        sender: PERSON.phone.slice(1),
        receiver: PERSON.momoPhone.slice(1),
        metadata: { sender_name: PERSON.name, receiver_name: PERSON.momoName, location: { lat: -1.29, lng: 36.82 } },
      },
      risk,
    );
    expect(evaluated.status).toBe(200);
    // a recipient profile and a message to it, and one to a raw address
    expect(
      (await call('PUT', '/v1/recipients/log-user', { email: PERSON.email, phone: PERSON.phone, locale: 'en' }, notify)).status,
    ).toBeLessThan(300);
    expect(
      (
        await call(
          'POST',
          '/v1/templates',
          { name: 'hello', channels: { sms: { body: 'Hi {{name}}, we keep {{address}} on file' } } },
          notify,
        )
      ).status,
    ).toBe(201);
    const sent = await call(
      'POST',
      '/v1/send',
      { to: 'log-user', template: 'hello', channels: ['sms'], data: { name: PERSON.name, address: PERSON.address } },
      notify,
    );
    expect(sent.status).toBe(202);
    await eventually(async () => (at.requests.length > 1 ? true : null));

    // another organization's sends to the same number are limited (across organizations) without
    // telling it anything about the first organization's user
    const stranger = { 'x-api-key': (await client({})).apiKey };
    let limited: { status: number; body: unknown } | null = null;
    for (let i = 0; i < 6 && !limited; i++) {
      const res = await call(
        'POST',
        '/v1/verifications/phone',
        { phoneNumber: PERSON.phone, userId: 'stranger-user', channel: 'SMS' },
        stranger,
      );
      if (res.status === 429) limited = res;
    }
    expect(limited?.status).toBe(429);
    expect(JSON.stringify(limited?.body)).not.toMatch(/log-user|Zawadi/);

    // the metrics every service exposes after the run, and the logs
    const metrics = await Promise.all(
      [stack.urls.gateway, stack.urls.rest, stack.urls.verification, stack.urls.risk, stack.urls.notify].map(async (url) => {
        const res = await fetch(new URL('/metrics', url), { headers: { authorization: 'Bearer log-redaction-metrics-token' } });
        expect(res.status).toBe(200);
        return res.text();
      }),
    );
    const output = stack.output() + metrics.join('\n');
    // the run did log, at every level down to trace
    expect(output.split('\n').filter((line) => line.includes('"level":20')).length).toBeGreaterThan(10);
    const leaks = needles.map((value) => ({ value, line: output.split('\n').find((line) => line.includes(value)) })).filter((l) => l.line);
    expect(leaks).toEqual([]);
  }, 180_000);
});
