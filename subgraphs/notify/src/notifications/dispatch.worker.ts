import type pg from 'pg';
import { inTransaction } from '../../../../platform/db/transaction.js';
import { inJobSpan } from '../../../../platform/tracing.js';
import { Coalesced } from '../../../../platform/coalesced.js';
import type { Logger } from '../../../../platform/logger.js';
import { BACKLOG_COUNT_CAP, sharedReading } from '../../../../platform/metrics/backlog.js';
import type { Metric } from '../../../../platform/metrics/metric.js';
import { notifyQueueMetrics, type NotifyQueueReading } from '../../../../platform/metrics/notify.js';
import type { Channel, PushTarget, RenderedContent } from '../channels/channel.js';
import type { ChannelProviders } from '../channels/registry.js';
import { ProviderError, mapLimit, transientError, type Accepted, type OutgoingMessage } from '../channels/provider.js';
import type { TemplateContent } from '../templates/template.content.js';
import { describeRenderError, type TemplateRenderer } from '../templates/template.render.js';
import { CHANNEL_LIFECYCLE, type DeliveryStatus, type DeliveryTrigger } from './notification.lifecycle.js';
import { loadViews } from './notification.store.js';
import { lockedNotifications, recordBatchProgress, refreshNotifications } from './progress.js';
import { recordNotificationEvents } from './notification.events.js';
import { openPixelUrl } from './tracking.url.js';

/** The dispatch span's name (`job notify-dispatch`, as when dispatch was a pg-boss queue). */
export const DISPATCH_QUEUE = 'notify-dispatch';
/** Deliveries one claim takes at most: a 10,000-recipient batch goes out in 100 claims or more. */
export const BATCH_CHUNK = 100;
/** A claim's deliveries stay claimed this long: a worker that died leaves them to others after it. */
export const DEFAULT_LEASE_SECONDS = 300;

export interface DispatcherOptions {
  pool: pg.Pool;
  providers: ChannelProviders;
  renderer: TemplateRenderer;
  logger: Logger;
  /** Seconds before each retry of a transient provider failure; after the last, the channel is `failed`. */
  retryDelays: number[];
  /** NOTIFY_PUBLIC_URL: the tracking pixel's origin. */
  publicUrl: string;
  /** Claims this instance works on at once. */
  workers?: number;
  /**
   * JOB_POLL_SECONDS: how often an idle instance looks for deliveries it was not told of (other
   * instances' retries, a dead worker's claims); `kick()` after a commit claims at once. 0.5 when absent.
   */
  pollSeconds?: number;
  /**
   * NOTIFY_CLAIM_LEASE_SECONDS: how long claimed deliveries stay claimed; after a crash, the dead
   * worker's deliveries are taken again once it has passed.
   */
  leaseSeconds?: number;
}

interface Claimed {
  id: string;
  notification_id: string;
  organization_id: string;
  environment: string;
  channel: Channel;
  provider: string;
  address: string | null;
  push_targets: PushTarget[] | null;
  tracking_token: string | null;
  attempts: number;
  template_id: string;
  data: Record<string, unknown>;
  accepted_at: Date;
  trace_parent: string | null;
}

interface Outcome {
  id: string;
  notificationId: string;
  trigger: DeliveryTrigger;
  providerMessageId: string | null;
  reason: string | null;
  latencyMs: number | null;
  retryInSeconds: number | null;
}

/** When a queued delivery may be claimed: its retry's time, else its acceptance (deliveries_queued_due_idx). */
const DUE = 'coalesce(next_attempt_at, created_at)';
const UNCLAIMED = '(claimed_until is null or claimed_until < now())';

/** The queue by state, each count bounded (docs/metrics.md, "Notification dispatch"). */
const QUEUE_SQL = `select
  (select count(*) from (select 1 from notify.deliveries where status = 'queued' and ${DUE} <= now() and ${UNCLAIMED} limit $1) s)::int as due,
  (select count(*) from (select 1 from notify.deliveries where status = 'queued' and claimed_until >= now() limit $1) s)::int as sending,
  (select count(*) from (select 1 from notify.deliveries where status = 'queued' and ${DUE} > now() and ${UNCLAIMED} limit $1) s)::int as scheduled,
  coalesce((select extract(epoch from now() - ${DUE}) from notify.deliveries where status = 'queued' and ${DUE} <= now() and ${UNCLAIMED}
     order by ${DUE} limit 1), 0)::float8 as oldest`;

/** The dispatch queue's gauges, read when scraped, at most once per BACKLOG_READ_INTERVAL_MS (several scrapers share a reading). */
export function dispatchQueueMetrics(pool: pg.Pool, logger: Logger): Metric[] {
  const read = async (): Promise<NotifyQueueReading> => {
    const { rows } = await pool.query<{ due: number; sending: number; scheduled: number; oldest: number }>(QUEUE_SQL, [BACKLOG_COUNT_CAP]);
    return { due: rows[0].due, sending: rows[0].sending, scheduled: rows[0].scheduled, oldestDueSeconds: Math.max(0, rows[0].oldest) };
  };
  return notifyQueueMetrics(sharedReading(read, logger, 'the dispatch queue'));
}

/**
 * Delivers queued channels. The deliveries table is the queue: a claim takes due, unclaimed
 * deliveries (`for update skip locked`, so instances and workers claim side by side) and leases
 * them; they are rendered, sent through their provider, and every outcome, the notifications' new
 * status, their outbox events, batch progress and retries (a later `next_attempt_at`) are recorded
 * in one transaction. A channel that is no longer `queued` is left alone; one claimed by a worker
 * that died is taken again when its lease ends.
 */
export class Dispatcher {
  private readonly templates = new Map<string, TemplateContent>();
  private readonly leaseSeconds: number;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly filler = new Coalesced(
    () => this.fill(),
    (err) => this.opts.logger.error({ err }, 'could not claim deliveries'),
  );
  /** Due deliveries may be left (the last claim was full, or a wake found every worker busy): claim when one is free. */
  private more = false;
  private stopped = true;
  private poll: NodeJS.Timeout | null = null;
  /** The wake-up at the earliest due time this instance knows of (a retry, a lease's end). */
  private due: { at: number; timer: NodeJS.Timeout } | null = null;

  constructor(private readonly opts: DispatcherOptions) {
    this.leaseSeconds = opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  }

  start(): void {
    this.stopped = false;
    this.poll = setInterval(() => this.lookAhead(), (this.opts.pollSeconds ?? 0.5) * 1000);
    this.poll.unref();
    // what a previous run left: due now, or a retry or lease ending later
    this.lookAhead();
  }

  /** Deliveries were just committed: claim now rather than at the next poll. */
  kick(): void {
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    if (this.due) clearTimeout(this.due.timer);
    this.poll = this.due = null;
    await this.filler.settled();
    await Promise.allSettled([...this.inFlight]);
  }

  private wake(): void {
    if (!this.stopped) this.filler.wake();
  }

  /** A claim per free worker while claims come back full: one statement for a single send. */
  private async fill(): Promise<void> {
    while (!this.stopped) {
      if (this.inFlight.size >= (this.opts.workers ?? 4)) {
        this.more = true;
        return;
      }
      const claimed = await this.claim();
      this.more = claimed.length === BATCH_CHUNK;
      if (claimed.length) {
        const work: Promise<void> = inJobSpan(DISPATCH_QUEUE, { traceparent: claimed[0].trace_parent }, () => this.dispatch(claimed))
          .catch((err: unknown) => this.opts.logger.error({ err }, 'could not dispatch notifications'))
          .finally(() => {
            this.inFlight.delete(work);
            if (this.more) this.wake();
          });
        this.inFlight.add(work);
      }
      if (!this.more) return;
    }
  }

  /**
   * Due deliveries nobody holds, oldest due first, leased and their attempt counted in the same
   * statement. A claim holding several requests' deliveries continues the first one's trace.
   */
  private async claim(): Promise<Claimed[]> {
    const { rows } = await this.opts.pool.query<Claimed>(
      `with due as (
         select id from notify.deliveries
          where status = 'queued' and ${DUE} <= now() and ${UNCLAIMED}
          order by ${DUE}, id limit $1 for update skip locked)
       update notify.deliveries d
          set claimed_until = now() + make_interval(secs => $2), attempts = d.attempts + 1, updated_at = now()
         from due, notify.notifications n
        where d.id = due.id and n.id = d.notification_id
        returning d.id, d.notification_id, d.organization_id, d.environment, d.channel, d.provider, d.address, d.push_targets,
                  d.tracking_token, d.attempts, n.template_id, n.data, n.created_at as accepted_at, n.trace_parent`,
      [BATCH_CHUNK, this.leaseSeconds],
    );
    return rows;
  }

  /**
   * Each poll: the earliest time a queued delivery may be claimed (a retry another instance
   * recorded, the end of a dead worker's lease) becomes a wake-up; one already due, a claim.
   */
  private lookAhead(): void {
    if (this.stopped) return;
    this.opts.pool
      .query<{ seconds: number | null }>(
        `select extract(epoch from min(greatest(${DUE}, claimed_until)) - now())::float8 as seconds
           from notify.deliveries where status = 'queued'`,
      )
      .then(({ rows: [{ seconds }] }) => {
        if (seconds !== null) this.wakeIn(seconds);
      })
      .catch((err: unknown) => this.opts.logger.error({ err }, 'could not look for due deliveries'));
  }

  /** Wakes in `seconds` (at once when due), unless an earlier wake-up is already set. */
  private wakeIn(seconds: number): void {
    if (this.stopped) return;
    if (seconds <= 0) return this.wake();
    const at = Date.now() + seconds * 1000;
    if (this.due && this.due.at <= at) return;
    if (this.due) clearTimeout(this.due.timer);
    const timer = setTimeout(() => {
      this.due = null;
      this.wake();
    }, at - Date.now());
    timer.unref();
    this.due = { at, timer };
  }

  private async dispatch(claimed: Claimed[]): Promise<void> {
    const outcomes = await this.send(claimed);
    await this.record(outcomes);
    const retries = outcomes.flatMap((o) => (o.retryInSeconds === null ? [] : [o.retryInSeconds]));
    if (retries.length) this.wakeIn(Math.min(...retries));
  }

  private async send(claimed: Claimed[]): Promise<Outcome[]> {
    await this.loadTemplates(claimed.map((c) => c.template_id));
    const outcomes: Outcome[] = [];
    const byProvider = new Map<string, Array<{ row: Claimed; message: OutgoingMessage }>>();
    for (const row of claimed) {
      let content: RenderedContent;
      try {
        content = this.opts.renderer.render(row.template_id, this.templates.get(row.template_id)!, row.channel, row.data);
      } catch (err) {
        outcomes.push(this.outcome(row, new ProviderError(`template: ${describeRenderError(err)}`, true), 'provider.failed'));
        continue;
      }
      if (row.channel === 'email' && row.tracking_token)
        content.html = withPixel(content.html ?? '', openPixelUrl(this.opts.publicUrl, row.tracking_token));
      const targets = row.push_targets ?? undefined;
      const message: OutgoingMessage = {
        deliveryId: row.id,
        notificationId: row.notification_id,
        organizationId: row.organization_id,
        environment: row.environment,
        channel: row.channel,
        attempt: row.attempts,
        to: row.address ?? (targets ?? []).map((t) => (t.type === 'fcm' ? t.token : t.subscription.endpoint)).join(', '),
        targets,
        content,
      };
      const group = byProvider.get(row.provider) ?? [];
      group.push({ row, message });
      byProvider.set(row.provider, group);
    }
    for (const [name, group] of byProvider) {
      const provider = this.opts.providers.get(name);
      const messages = group.map((g) => g.message);
      let results: Array<Accepted | ProviderError>;
      if (!provider) {
        results = messages.map(() => transientError(`provider ${name} is not configured on this instance`));
      } else if (provider.sendMany) {
        results = await provider.sendMany(messages).catch((err: Error) => messages.map(() => transientError(`${name}: ${err.message}`)));
      } else {
        results = await mapLimit(messages, provider.concurrency ?? 10, (m) =>
          provider
            .send(m)
            .catch((err: unknown) => (err instanceof ProviderError ? err : transientError(`${name}: ${(err as Error).message}`))),
        );
      }
      group.forEach(({ row }, i) => outcomes.push(this.outcome(row, results[i])));
    }
    return outcomes;
  }

  private outcome(row: Claimed, result: Accepted | ProviderError, failTrigger?: DeliveryTrigger): Outcome {
    const base = { id: row.id, notificationId: row.notification_id, providerMessageId: null, latencyMs: null, retryInSeconds: null };
    if (!(result instanceof ProviderError)) {
      return {
        ...base,
        trigger: result.status === 'delivered' ? 'provider.delivered' : 'provider.sent',
        providerMessageId: result.providerMessageId ?? null,
        reason: result.note ?? null,
        latencyMs: Date.now() - new Date(row.accepted_at).getTime(),
      };
    }
    if (failTrigger) return { ...base, trigger: failTrigger, reason: result.message };
    if (result.permanent) return { ...base, trigger: 'provider.rejected', reason: result.message };
    const retryIn = this.opts.retryDelays[row.attempts - 1];
    if (retryIn === undefined) return { ...base, trigger: 'provider.failed', reason: `${result.message} (after ${row.attempts} attempts)` };
    return { ...base, trigger: 'provider.retry', reason: result.message, retryInSeconds: retryIn };
  }

  /** Outcomes (a retry is its `next_attempt_at`), statuses, events and batch progress: one transaction. */
  private async record(outcomes: Outcome[]): Promise<void> {
    await inTransaction(this.opts.pool, async (client) => {
      const notificationIds = [...new Set(outcomes.map((o) => o.notificationId))];
      const col = <T>(pick: (o: Outcome) => T) => outcomes.map(pick);
      await client.query(
        `with ${lockedNotifications('$8')}
         update notify.deliveries d
            set status = u.status, provider_message_id = coalesce(u.pmid, d.provider_message_id), reason = u.reason,
                latency_ms = coalesce(u.latency_ms, d.latency_ms),
                sent_at = case when u.status in ('sent', 'delivered') then now() else d.sent_at end,
                delivered_at = case when u.status = 'delivered' then now() else d.delivered_at end,
                failed_at = case when u.status in ('failed', 'undeliverable') then now() else d.failed_at end,
                next_attempt_at = case when u.retry_in is null then null else now() + make_interval(secs => u.retry_in) end,
                claimed_until = null, updated_at = now()
           from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::float8[]) as u(id, status, pmid, reason, latency_ms, retry_in), locked
          where d.id = u.id and d.notification_id = locked.id and d.status = any($7::text[])`,
        [
          col((o) => o.id),
          col((o): DeliveryStatus => CHANNEL_LIFECYCLE.target(o.trigger)),
          col((o) => o.providerMessageId),
          col((o) => o.reason),
          col((o) => o.latencyMs),
          col((o) => o.retryInSeconds),
          CHANNEL_LIFECYCLE.sources('provider.sent'),
          notificationIds,
        ],
      );
      const refreshed = await refreshNotifications(client, notificationIds);
      await recordNotificationEvents(client, 'notification.updated', await loadViews(client, notificationIds));
      await recordBatchProgress(client, refreshed);
    });
  }

  private async loadTemplates(ids: string[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.templates.has(id));
    if (!missing.length) return;
    const { rows } = await this.opts.pool.query<{ id: string; content: TemplateContent }>(
      'select id, content from notify.templates where id = any($1::uuid[])',
      [missing],
    );
    // versions never change: keep them (bounded)
    if (this.templates.size > 5000) this.templates.clear();
    for (const r of rows) this.templates.set(r.id, r.content);
  }
}

/** The open-tracking pixel, just before `</body>` (or at the end of a fragment). */
export function withPixel(html: string, url: string): string {
  const img = `<img src="${url}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`;
  const at = html.toLowerCase().lastIndexOf('</body>');
  return at < 0 ? html + img : html.slice(0, at) + img + html.slice(at);
}
