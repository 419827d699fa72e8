import { eventually, startTestStack, type TestStack } from './support/stack.js';

const BATCH_FIELDS =
  'id template { name version } channels total queued processed succeeded failed status completedAt channelProgress { channel queued sent delivered failed undeliverable }';

describe('notify batches: 10,000 recipients, fan-out by jobs, progress', () => {
  let stack: TestStack;
  let h: Record<string, string>;

  beforeAll(async () => {
    stack = await startTestStack({ NOTIFY_RETRY_DELAYS: '0.2,0.2' });
    const client = await stack.createClient({ name: 'bulk sender', service: 'notify', environment: 'test' });
    h = { authorization: `Bearer ${client.apiKey}` };
    const template = {
      name: 'promo',
      channels: {
        sms: { body: 'Hi {{first_name}}, {{offer}} ends {{ends}}. Ref {{ref}}' },
        email: { subject: '{{offer}}', html: '<p>Hi {{first_name}}, {{offer}} ends {{ends}}.</p><p>{{{footer}}}</p>' },
      },
    };
    expect((await stack.rest('POST', '/v1/templates', template, h)).status).toBe(201);
  });
  afterAll(() => stack?.stop());

  /** 10,000 recipients whose data makes the body larger than the default 2 MB limit. */
  function recipients(n: number, data: (i: number) => Record<string, unknown> = () => ({})) {
    const footer = 'You receive this because you shop with us. '.repeat(5);
    return Array.from({ length: n }, (_, i) => ({
      // …5: never one of the sandbox's magic endings (0001-0003)
      to: `+2547${20_000_000 + i * 10 + 5}`,
      data: { first_name: `Customer ${i}`, offer: 'Double points weekend', ends: 'Sunday 23:59', ref: `R-${i}`, footer, ...data(i) },
    }));
  }

  it('accepts 10,000 recipients in one call (a body over 2 MB), fans out, and reports progress until completed', async () => {
    const list = recipients(10_000);
    expect(JSON.stringify({ template: 'promo', channels: ['sms'], recipients: list }).length).toBeGreaterThan(2 * 1024 * 1024);
    const res = await stack.rest('POST', '/v1/send/batch', { template: 'promo', channels: ['sms'], recipients: list }, h);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ total: 10_000, queued: 10_000, status: 'processing' });
    const batchId = res.body.batch_id;
    expect(batchId).toMatch(/^[0-9a-f-]{36}$/);

    const sub = stack.subscribe(
      `subscription($id: ID!) { notificationBatchUpdated(id: $id) { type occurredAt node { id processed queued status } } }`,
      { id: batchId },
      h,
    );
    try {
      const done = await eventually(
        async () => {
          const b = await stack.rest('GET', `/v1/send/batch/${batchId}`, undefined, h);
          return b.body.status === 'completed' ? b.body : null;
        },
        60_000,
        250,
      );
      expect(done).toMatchObject({
        batch_id: batchId,
        total: 10_000,
        queued: 0,
        processed: 10_000,
        succeeded: 10_000,
        failed: 0,
        status: 'completed',
      });
      expect(done.channels.sms).toEqual({ queued: 0, sent: 0, delivered: 10_000, opened: 0, failed: 0, undeliverable: 0 });
      expect(Date.parse(done.completed_at)).not.toBeNaN();

      const events = await eventually(async () =>
        sub.events.some((e) => e.data?.notificationBatchUpdated.node.status === 'COMPLETED') ? sub.events : null,
      );
      const processed = events.map((e) => e.data.notificationBatchUpdated.node.processed);
      expect(processed).toEqual([...processed].sort((a, b) => a - b));
      expect(events.slice(0, -1).every((e) => e.data.notificationBatchUpdated.type === 'BATCH_PROGRESS')).toBe(true);
      const last = events[events.length - 1].data.notificationBatchUpdated;
      expect(last).toMatchObject({ type: 'BATCH_COMPLETED', node: { id: batchId, processed: 10_000, queued: 0, status: 'COMPLETED' } });
      expect(Date.parse(last.occurredAt)).not.toBeNaN();
    } finally {
      await sub.close();
    }

    const page = await stack.rest('GET', `/v1/notifications?batch_id=${batchId}&page=2&limit=3`, undefined, h);
    expect(page.body.total).toBe(10_000);
    expect(page.body.data.map((n: any) => n.to)).toEqual(['+254720000035', '+254720000045', '+254720000055']);
    expect(page.body.data[0]).toMatchObject({
      batch_id: batchId,
      status: 'delivered',
      channels: { sms: { status: 'delivered', provider: 'sandbox' } },
    });
    const sms = await stack.rest('GET', '/v1/sandbox/messages?to=%2B254720099995', undefined, h);
    expect(sms.body.data[0].body).toBe('Hi Customer 9999, Double points weekend ends Sunday 23:59. Ref R-9999');
  });

  it('refuses 10,001 recipients, and names every recipient whose data is incomplete (nothing is stored)', async () => {
    const tooMany = await stack.rest('POST', '/v1/send/batch', { template: 'promo', channels: ['sms'], recipients: recipients(10_001) }, h);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toEqual(['recipients must contain at most 10,000 recipients (got 10,001)']);

    const list = recipients(5);
    delete (list[1].data as Record<string, unknown>).first_name;
    (list[3] as Record<string, unknown>).data = 'not an object';
    list[4].to = 'unknown-recipient';
    const before = (await stack.rest('GET', '/v1/notifications', undefined, h)).body.total;
    const bad = await stack.rest('POST', '/v1/send/batch', { template: 'promo', channels: ['sms', 'email'], recipients: list }, h);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual([
      'recipients[1].data.first_name is required by template "promo" version 1 (sms.body)',
      'recipients[3].data must be a JSON object',
      'recipients[4].to: recipient unknown-recipient not found',
    ]);
    expect((await stack.rest('GET', '/v1/notifications', undefined, h)).body.total).toBe(before);
    const empty = await stack.rest('POST', '/v1/send/batch', { template: 'promo', channels: ['sms'], recipients: [] }, h);
    expect(empty.body.message).toEqual(['recipients must contain at least one recipient']);
    expect((await stack.rest('POST', '/v1/send/batch', { template: 'promo', channels: ['sms'] }, h)).body.message).toEqual([
      'recipients is required',
    ]);
    expect((await stack.rest('POST', '/v1/send/batch', { template: 'gone', channels: ['sms'], recipients: recipients(1) }, h)).status).toBe(
      404,
    );
  });

  it('counts each recipient once: retried, failed and undeliverable channels included', async () => {
    // sandbox magic numbers: …0001 undeliverable, …0002 fails every attempt, …0003 fails once
    const list = ['+254700000001', '+254700000002', '+254700000003', '+254700000004', 'ok@example.com'].map((to, i) => ({
      to,
      data: { first_name: `N${i}`, offer: 'o', ends: 'e', ref: 'r', footer: '' },
    }));
    const res = await stack.rest('POST', '/v1/send/batch', { template: 'promo', channels: ['sms'], recipients: list }, h);
    expect(res.body).toMatchObject({ total: 5, queued: 4, status: 'processing' });
    const done = await eventually(async () => {
      const b = (await stack.gql(`query($id: ID!) { notificationBatch(id: $id) { ${BATCH_FIELDS} } }`, { id: res.body.batch_id }, h)).body
        .data.notificationBatch;
      return b.status === 'COMPLETED' ? b : null;
    });
    expect(done).toMatchObject({
      total: 5,
      queued: 0,
      processed: 5,
      succeeded: 2,
      failed: 3,
      channels: ['SMS'],
      template: { name: 'promo', version: 1 },
    });
    expect(done.channelProgress).toEqual([{ channel: 'SMS', queued: 0, sent: 0, delivered: 2, failed: 1, undeliverable: 2 }]);
  });

  it('a batch whose recipients cannot be reached on any channel is completed at once', async () => {
    const res = await stack.rest('POST', '/v1/send/batch', { template: 'promo', channels: ['email'], recipients: recipients(3) }, h);
    expect(res.body).toMatchObject({ total: 3, queued: 0, status: 'completed' });
    expect(res.body.channels.email).toMatchObject({ undeliverable: 3 });
  });

  it('Idempotency-Key returns the first batch again', async () => {
    const body = { template: 'promo', channels: ['sms'], recipients: recipients(20) };
    const headers = { ...h, 'idempotency-key': 'campaign-2026-11' };
    const first = await stack.rest('POST', '/v1/send/batch', body, headers);
    const again = await stack.rest('POST', '/v1/send/batch', body, headers);
    expect(again.status).toBe(202);
    expect(again.body.batch_id).toBe(first.body.batch_id);
    expect(again.body).toMatchObject({ total: 20, queued: 20, status: 'processing' });
    const changed = await stack.rest('POST', '/v1/send/batch', { ...body, recipients: recipients(19) }, headers);
    expect(changed.status).toBe(409);
  });

  it('GraphQL: sendNotificationBatch, the progress query, and user errors naming the input field', async () => {
    const send = (input: Record<string, unknown>) =>
      stack.gql(
        `mutation($input: SendNotificationBatchInput!) { sendNotificationBatch(input: $input) {
          notificationBatch { id total queued status template { name } } userErrors { field code message } } }`,
        { input },
        h,
      );
    const res = await send({ template: 'promo', channels: ['SMS'], recipients: recipients(250) });
    expect(res.body.data.sendNotificationBatch).toMatchObject({
      notificationBatch: { total: 250, queued: 250, status: 'PROCESSING', template: { name: 'promo' } },
      userErrors: [],
    });
    const id = res.body.data.sendNotificationBatch.notificationBatch.id;
    await eventually(
      async () =>
        (await stack.gql(`query($id: ID!) { notificationBatch(id: $id) { status } }`, { id }, h)).body.data.notificationBatch.status ===
        'COMPLETED',
    );
    expect((await stack.rest('GET', '/v1/send/batch/00000000-0000-0000-0000-000000000000', undefined, h)).status).toBe(404);
    const missing = await stack.gql(`{ notificationBatch(id: "00000000-0000-0000-0000-000000000000") { id } }`, {}, h);
    expect(missing.body).toEqual({ data: { notificationBatch: null } });

    const invalid = await send({ template: 'promo', channels: ['SMS', 'SMS'], recipients: [] });
    expect(invalid.body.data.sendNotificationBatch).toEqual({
      notificationBatch: null,
      userErrors: [
        { field: ['input', 'channels'], code: 'BAD_USER_INPUT', message: 'channels must not repeat a channel' },
        { field: ['input', 'recipients'], code: 'BAD_USER_INPUT', message: 'recipients must contain at least one recipient' },
      ],
    });
    const unknown = await send({ template: 'gone', channels: ['SMS'], recipients: recipients(1) });
    expect(unknown.body.data.sendNotificationBatch.userErrors).toEqual([
      { field: null, code: 'NOT_FOUND', message: 'Template gone not found' },
    ]);
  });

  it('notifications of a batch page in recipient order, without gaps or repeats', async () => {
    const res = await stack.rest('POST', '/v1/send/batch', { template: 'promo', channels: ['sms'], recipients: recipients(7) }, h);
    const query = `query($filter: NotificationFilter, $after: String) { notifications(filter: $filter, first: 3, after: $after) {
      totalCount nodes { to batch { id } } pageInfo { hasNextPage endCursor } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: any = (await stack.gql(query, { filter: { batchId: res.body.batch_id }, after }, h)).body.data.notifications;
      expect(page.totalCount).toBe(7);
      for (const n of page.nodes) expect(n.batch).toEqual({ id: res.body.batch_id });
      seen.push(...page.nodes.map((n: { to: string }) => n.to));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(recipients(7).map((r) => r.to));
  });
});
