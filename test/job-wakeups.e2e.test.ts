import { eventually, startTestStack, type TestStack } from './support/stack.js';
import { daysAgo, electricityBill } from './support/bills.js';

/** Far longer than any check here takes: a job found by a poll would miss every deadline below. */
const POLL_SECONDS = 120;
const DEADLINE_MS = 45_000;

describe('a job committed by this process is worked at once, not at the next poll (JOB_POLL_SECONDS)', () => {
  let stack: TestStack;
  let h: Record<string, string>;

  beforeAll(async () => {
    stack = await startTestStack({ JOB_POLL_SECONDS: String(POLL_SECONDS), NOTIFY_RETRY_DELAYS: '1' });
    h = { 'x-api-key': (await stack.createClient({ name: 'wakeups' })).apiKey };
  });
  afterAll(() => stack?.stop());

  /** The record once its job has moved it on from PENDING / PROCESSING. */
  const worked = (path: string) =>
    eventually(async () => {
      const res = await stack.rest('GET', path, undefined, h);
      return ['PENDING', 'PROCESSING'].includes(res.body.status) ? null : res.body;
    }, DEADLINE_MS);

  it('a business registry lookup', async () => {
    const res = await stack.rest(
      'POST',
      '/verifications/business',
      { userId: 'wakeup-kyb', businessName: 'Acme Traders Ltd', registrationNumber: 'PVT-WAKE-1', country: 'KE', businessType: 'LLC' },
      h,
    );
    expect([res.status, res.body.status]).toEqual([201, 'PENDING']);
    const looked = await eventually(async () => {
      const read = (await stack.rest('GET', `/verifications/business/${res.body.id}`, undefined, h)).body;
      return read.registryLookup.attempts > 0 ? read : null;
    }, DEADLINE_MS);
    expect(looked.registryData).not.toBeNull();
  });

  it('a proof of address (read in a vision worker process)', async () => {
    const form = new FormData();
    form.append('userId', 'wakeup-address');
    form.append('documentType', 'UTILITY_BILL');
    form.append('country', 'KE');
    const bill = await electricityBill('AMINA WANJIKU', ['12 Moi Avenue', 'Nairobi 00100'], daysAgo(20));
    form.append('document', new Blob([new Uint8Array(bill)], { type: 'image/jpeg' }), 'bill.jpg');
    const res = await stack.rest('POST', '/v1/verifications/address', form, h);
    expect(res.status).toBe(201);
    const done = await worked(`/verifications/address/${res.body.id}`);
    expect(done.extractedData).toMatchObject({ fullName: 'AMINA WANJIKU' });
  });

  it('a notification', async () => {
    const n = { authorization: `Bearer ${(await stack.createClient({ name: 'wakeups notify', service: 'notify' })).apiKey}` };
    const template = { name: 'wakeup', channels: { sms: { body: 'Hello {{name}}' } } };
    expect((await stack.rest('POST', '/v1/templates', template, n)).status).toBe(201);
    const body = { to: '+254712345678', template: 'wakeup', channels: ['sms'], data: { name: 'Amina' } };
    const sent = await stack.rest('POST', '/v1/send', body, n);
    expect(sent.status).toBe(202);
    await eventually(async () => {
      const read = (await stack.rest('GET', `/v1/notifications/${sent.body.notification_id}`, undefined, n)).body;
      return Object.values(read.channels as Record<string, { status: string }>).every((c) => c.status !== 'queued');
    }, DEADLINE_MS);
    // a provider error retried after NOTIFY_RETRY_DELAYS (1 s): the worker wakes for it, not at the next poll
    const flaky = await stack.rest('POST', '/v1/send', { ...body, to: '+254712340003' }, n);
    const retried = await eventually(async () => {
      const read = (await stack.rest('GET', `/v1/notifications/${flaky.body.notification_id}`, undefined, n)).body;
      return read.channels.sms.status === 'queued' ? null : read.channels.sms;
    }, DEADLINE_MS);
    expect(retried).toMatchObject({ status: 'delivered', attempts: 2 });
  });
});
