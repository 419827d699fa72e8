import pg from 'pg';
import {
  BATCH_LIFECYCLE,
  CHANNEL_LIFECYCLE,
  DELIVERY_STATUSES,
  notificationStatus,
  notificationStatusSql,
  type DeliveryStatus,
} from './notifications/notification.lifecycle.js';
import { validateChannels } from './notifications/notification.prepare.js';
import { withPixel } from './notifications/dispatch.worker.js';
import { parseDeliveryReport } from './channels/sms-africastalking.provider.js';
import { MAX_RENDERED_CHARS, RenderLimitError, TemplateRenderer, describeRenderError } from './templates/template.render.js';

describe('notify lifecycles', () => {
  it('moves a channel only forward', () => {
    expect(CHANNEL_LIFECYCLE.next(null, 'accepted')).toBe('queued');
    expect(CHANNEL_LIFECYCLE.next(null, 'accepted.unaddressable')).toBe('undeliverable');
    expect(CHANNEL_LIFECYCLE.next('queued', 'provider.sent')).toBe('sent');
    expect(CHANNEL_LIFECYCLE.next('queued', 'provider.retry')).toBe('queued');
    expect(CHANNEL_LIFECYCLE.next('queued', 'provider.rejected')).toBe('undeliverable');
    expect(CHANNEL_LIFECYCLE.next('sent', 'report.delivered')).toBe('delivered');
    expect(CHANNEL_LIFECYCLE.next('delivered', 'tracking.opened')).toBe('opened');
    // late or repeated reports change nothing
    expect(CHANNEL_LIFECYCLE.allows('delivered', 'report.failed')).toBe(false);
    expect(CHANNEL_LIFECYCLE.allows('opened', 'tracking.opened')).toBe(false);
    expect(CHANNEL_LIFECYCLE.allows('failed', 'provider.sent')).toBe(false);
    expect(CHANNEL_LIFECYCLE.sources('tracking.opened')).toEqual(['sent', 'delivered']);
    expect(() => CHANNEL_LIFECYCLE.move('failed', 'report.delivered')).toThrow(
      'Cannot apply report.delivered to a notification channel in status failed (allowed from: sent)',
    );
  });

  it('completes a batch once, with its events', () => {
    expect(BATCH_LIFECYCLE.target('accepted')).toBe('processing');
    expect(BATCH_LIFECYCLE.target('accepted.all_processed')).toBe('completed');
    expect(BATCH_LIFECYCLE.move('processing', 'recipients.completed')).toMatchObject({ to: 'completed', event: 'batch.completed' });
    expect(BATCH_LIFECYCLE.eventOf('recipients.processed')).toBe('batch.progress');
    expect(BATCH_LIFECYCLE.allows('completed', 'recipients.processed')).toBe(false);
  });

  it.each<[DeliveryStatus[], string]>([
    [['queued'], 'dispatched'],
    [['delivered', 'sent'], 'dispatched'],
    [['delivered', 'opened'], 'delivered'],
    [['opened', 'failed'], 'partially_delivered'],
    [['undeliverable'], 'failed'],
    [['failed', 'undeliverable'], 'failed'],
  ])('a notification with channels %j is %s', (channels, status) => {
    expect(notificationStatus(channels)).toBe(status);
  });

  it('derives the same notification status in SQL as in TypeScript, for every mix of two channels', async () => {
    const db = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await db.connect();
    try {
      const mixes = DELIVERY_STATUSES.flatMap((a) => DELIVERY_STATUSES.map((b) => [a, b] as DeliveryStatus[]));
      const { rows } = await db.query<{ mix: number; status: string }>(
        `select d.mix, ${notificationStatusSql('d.status')} as status
           from unnest($1::int[], $2::text[]) as d(mix, status) group by d.mix order by d.mix`,
        [mixes.flatMap((_, i) => [i, i]), mixes.flat()],
      );
      expect(rows.map((r) => r.status)).toEqual(mixes.map((m) => notificationStatus(m)));
    } finally {
      await db.end();
    }
  });
});

describe('notify helpers', () => {
  it('validates channels: known, at least one, no repeats', () => {
    const errors: string[] = [];
    expect(validateChannels(['email', 'sms'], errors)).toEqual(['email', 'sms']);
    expect(errors).toEqual([]);
    validateChannels([], errors);
    validateChannels(['fax', 'sms', 'sms'], errors);
    expect(errors).toEqual([
      'channels must contain at least one of email, sms, push, whatsapp, voice',
      'channels must be among: email, sms, push, whatsapp, voice (unknown: fax)',
      'channels must not repeat a channel',
    ]);
  });

  it('puts the open pixel before </body>, or at the end of a fragment', () => {
    expect(withPixel('<html><BODY>Hi</BODY></html>', 'https://n/p.gif')).toMatch(
      /^<html><BODY>Hi<img src="https:\/\/n\/p.gif"[^>]*><\/BODY><\/html>$/,
    );
    expect(withPixel('<p>Hi</p>', 'https://n/p.gif')).toMatch(/^<p>Hi<\/p><img src="https:\/\/n\/p.gif"/);
  });

  it("reads Africa's Talking delivery reports", () => {
    expect(parseDeliveryReport({ id: 'ATX1', status: 'Success' })).toEqual({
      providerMessageId: 'ATX1',
      status: 'Success',
      outcome: 'delivered',
    });
    expect(parseDeliveryReport({ id: 'ATX2', status: 'Failed', failureReason: 'InsufficientCredit' })).toEqual({
      providerMessageId: 'ATX2',
      status: 'Failed',
      outcome: 'failed',
      reason: 'delivery report: Failed (InsufficientCredit)',
    });
    expect(parseDeliveryReport({ id: 'ATX3', status: 'Buffered' })?.outcome).toBeNull();
    expect(parseDeliveryReport({ status: 'Success' })).toBeNull();
  });

  it('renders templates strictly and names what is missing', () => {
    const renderer = new TemplateRenderer();
    const content = { sms: { body: 'Hi {{first_name}}, ref {{ref}}' } };
    expect(renderer.render('t1', content, 'sms', { first_name: 'Amina', ref: 'R-1' })).toEqual({ body: 'Hi Amina, ref R-1' });
    let error: unknown;
    try {
      renderer.render('t1', content, 'sms', { first_name: 'Amina' });
    } catch (err) {
      error = err;
    }
    expect(describeRenderError(error)).toBe('data field "ref" is missing');
  });

  it('stops a render that loops or produces too much, and forgets the budget afterwards', () => {
    const renderer = new TemplateRenderer();
    const grid = { sms: { body: '{{#each rows}}{{#each ../cols}}.{{/each}}{{/each}}' } };
    const many = Array.from({ length: 200 }, (_, i) => i);
    expect(() => renderer.render('grid', grid, 'sms', { rows: many, cols: many })).toThrow(RenderLimitError);
    expect(renderer.render('grid', grid, 'sms', { rows: [1, 2], cols: [1, 2] })).toEqual({ body: '....' });
    const echo = { sms: { body: '{{#each rows}}{{../big}}{{/each}}' } };
    const big = 'x'.repeat(200_000);
    expect(() => renderer.render('echo', echo, 'sms', { rows: many.slice(0, 10), big })).toThrow(
      `the rendered message is over ${MAX_RENDERED_CHARS} characters`,
    );
  });
});
