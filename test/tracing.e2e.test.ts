import path from 'node:path';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { AMINA, passportPage } from './support/documents.js';
import { portrait } from './support/faces.js';
import { selfSignedCertificate, startReceiver } from './support/https-receiver.js';
import { eventually, importBuilt, startTestStack, type TestStack } from './support/stack.js';

const cert = selfSignedCertificate();

/**
 * OpenTelemetry across the graph, with the SDK's in-memory exporter: one REST document submission
 * is one connected trace — the REST adapter, the gateway, the verification subgraph and its
 * statements, the check job it queued, the outbox relay of the event the check fired and the
 * webhook delivery it caused, whose request carries the trace to the receiver.
 */
describe('traces across the graph', () => {
  let stack: TestStack;
  let tracing: { stop(): Promise<void> } | null;
  const exporter = new InMemorySpanExporter();

  beforeAll(async () => {
    // the stack's own copy of the tracing module (the build Node loads), so its pg and its context are the ones traced
    const built = (await importBuilt(path.resolve('dist/platform/tracing.js'))) as typeof import('../platform/tracing.js');
    tracing = built.startTracing({ serviceName: 'afri-verify-test', exporter });
    stack = await startTestStack({}, { webhookCa: cert.cert });
  });
  afterAll(async () => {
    await stack?.stop();
    await tracing?.stop();
  });

  it('one REST document submission is one trace, through its job, its event’s relay and the webhook delivery it caused', async () => {
    expect(tracing).not.toBeNull();
    const client = await stack.createClient({ name: 'traced' });
    const h = { 'x-api-key': client.apiKey };
    const receiver = await startReceiver(cert);
    const hook = await stack.rest(
      'POST',
      '/webhooks/configure',
      { clientId: client.id, callbackUrl: receiver.url, events: ['document.verified'] },
      h,
    );
    expect(hook.status).toBe(201);

    const body = new FormData();
    body.append('userId', 'traced-user');
    body.append('documentType', 'PASSPORT');
    body.append('documentCountry', 'KE');
    body.append(
      'frontImage',
      new Blob([new Uint8Array(await passportPage(AMINA, await portrait('woman')))], { type: 'image/jpeg' }),
      'p.jpg',
    );
    const created = await stack.rest('POST', '/v1/verifications/document', body, h);
    expect(created.status).toBe(201);
    await receiver.requests(1);

    // the receiver was handed the trace; every span of it is connected to the REST call's
    const traceparent = String(receiver.received[0].headers.traceparent ?? '');
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const traceId = traceparent.split('-')[1];
    const spans = await eventually(async () => {
      const mine = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
      return mine.some((s) => s.name === 'webhook delivery') ? mine : null;
    });
    const names = spans.map((s) => s.name);
    for (const expected of [
      'rest POST /verifications/document',
      'gateway mutation CreateDocumentVerification',
      'verification mutation CreateDocumentVerification',
      'job document-check',
      'outbox relay document.verified',
      'webhook delivery',
    ]) {
      expect(names).toContain(expected);
    }
    expect(names.filter((n) => n === 'pg.query').length).toBeGreaterThan(3);
    const root = spans.filter((s) => !parentOf(s));
    expect(root.map((s) => s.name)).toEqual(['rest POST /verifications/document']);
    // connected: every other span's parent is a span of the trace
    const ids = new Set(spans.map((s) => s.spanContext().spanId));
    expect(spans.filter((s) => parentOf(s) && !ids.has(parentOf(s)!)).map((s) => s.name)).toEqual([]);
    // the delivery's span is the one the receiver was told of
    expect(spans.find((s) => s.name === 'webhook delivery')!.spanContext().spanId).toBe(traceparent.split('-')[2]);
    await receiver.close();
  });

  it('continues a caller’s trace (W3C traceparent) and answers with the request’s own', async () => {
    const client = await stack.createClient({ name: 'caller' });
    const callerTrace = '0af7651916cd43dd8448eb211c80319c';
    const res = await stack.rest(
      'POST',
      '/v1/verifications/identity',
      { userId: 'continued' },
      {
        'x-api-key': client.apiKey,
        traceparent: `00-${callerTrace}-b7ad6b7169203331-01`,
      },
    );
    expect(res.status).toBe(201);
    const spans = await eventually(async () => {
      const mine = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === callerTrace);
      return mine.some((s) => s.name.startsWith('rest ')) ? mine : null;
    });
    expect(spans.find((s) => s.name.startsWith('rest '))!.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    expect(spans.map((s) => s.name)).toContain('verification mutation CreateIdentityVerification');
  });

  it('one notification send is one trace through its dispatch, its rows written in one statement and no job queued', async () => {
    const n = { authorization: `Bearer ${(await stack.createClient({ name: 'traced notify', service: 'notify' })).apiKey}` };
    const template = { name: 'traced', channels: { sms: { body: 'Hi {{name}}' } } };
    expect((await stack.rest('POST', '/v1/templates', template, n)).status).toBe(201);
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const sent = await stack.rest(
      'POST',
      '/v1/send',
      { to: '+254712345678', template: 'traced', channels: ['sms'], data: { name: 'Amina' } },
      { ...n, traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` },
    );
    expect(sent.status).toBe(202);
    const spans = await eventually(async () => {
      const mine = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === callerTrace);
      return mine.some((s) => s.name === 'job notify-dispatch') ? mine : null;
    });
    const statements = spans.filter((s) => s.name === 'pg.query').map((s) => String(s.attributes['db.query.text']));
    // the notification and its channels go in together; the channels are the dispatch queue (no pg-boss job)
    expect(statements.filter((q) => /insert into notify\.(notifications|deliveries)/.test(q))).toEqual([
      expect.stringMatching(/insert into notify\.notifications[\s\S]*insert into notify\.deliveries/),
    ]);
    expect(statements.filter((q) => /pgboss/i.test(q))).toEqual([]);
    // the dispatch after its claim: the template's first load, the sandbox's record, then begin, the channel's
    // outcome (its notification locked in the same statement), the status refresh, the view, its event, commit
    const dispatch = spans.find((s) => s.name === 'job notify-dispatch')!.spanContext().spanId;
    expect(spans.filter((s) => s.name === 'pg.query' && parentOf(s) === dispatch)).toHaveLength(8);
  });
});

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
