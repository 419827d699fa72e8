import type pg from 'pg';
import { inTransaction } from '../../../../platform/db/transaction.js';
import { jobDb, workQueue, type PgBoss, ensureQueue } from '../../../../platform/jobs.js';
import { inJobSpan, withTrace } from '../../../../platform/tracing.js';
import type { Logger } from '../../../../platform/logger.js';
import type { Channel, PushTarget, RenderedContent } from '../channels/channel.js';
import type { ChannelProviders } from '../channels/registry.js';
import { ProviderError, mapLimit, transientError, type Accepted, type OutgoingMessage } from '../channels/provider.js';
import type { TemplateContent } from '../templates/template.content.js';
import { describeRenderError, type TemplateRenderer } from '../templates/template.render.js';
import { CHANNEL_LIFECYCLE, type DeliveryStatus, type DeliveryTrigger } from './notification.lifecycle.js';
import { loadViews } from './notification.store.js';
import { lockNotifications, recordBatchProgress, refreshNotifications } from './progress.js';
import { recordNotificationEvents } from './notification.events.js';
import { openPixelUrl } from './tracking.url.js';

export const DISPATCH_QUEUE = 'notify-dispatch';
/** Recipients per batch job: a 10,000-recipient batch fans out into 100 jobs. */
export const BATCH_CHUNK = 100;
/** A job's deliveries stay claimed this long; pg-boss expires a job (dead worker) after the same time. */
export const DEFAULT_LEASE_SECONDS = 300;

/** A single send's (or a retry's) deliveries, or one chunk of a batch by position. */
export interface DispatchJob {
  deliveryIds?: string[];
  batchId?: string;
  from?: number;
  to?: number;
}

export interface DispatcherOptions {
  pool: pg.Pool;
  boss: PgBoss;
  providers: ChannelProviders;
  renderer: TemplateRenderer;
  logger: Logger;
  /** Seconds before each retry of a transient provider failure; after the last, the channel is `failed`. */
  retryDelays: number[];
  /** NOTIFY_PUBLIC_URL: the tracking pixel's origin. */
  publicUrl: string;
  /** Jobs this instance works on at once. */
  workers?: number;
  /** JOB_POLL_SECONDS: how often an idle worker asks for work (`kick()` after a commit fetches at once); 0.5 when absent. */
  pollSeconds?: number;
  /**
   * NOTIFY_CLAIM_LEASE_SECONDS: how long a job's deliveries stay claimed, and the job's pg-boss
   * expiry; after a crash, the dead worker's deliveries are taken again once it has passed.
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

/** Creates dispatch jobs in the caller's transaction (acceptance, retries): nothing is lost if the process dies. */
export async function enqueueDispatch(
  boss: PgBoss,
  client: pg.PoolClient,
  jobs: ReadonlyArray<{ job: DispatchJob; afterSeconds?: number }>,
): Promise<void> {
  if (!jobs.length) return;
  await boss.insert(
    DISPATCH_QUEUE,
    jobs.map(({ job, afterSeconds }) => ({ data: withTrace(job), ...(afterSeconds ? { startAfter: String(afterSeconds) } : {}) })) as never,
    { db: jobDb(client) } as never,
  );
}

/** The jobs of a batch: one per BATCH_CHUNK recipients, by position. */
export function batchJobs(batchId: string, total: number): Array<{ job: DispatchJob }> {
  const jobs = [];
  for (let from = 0; from < total; from += BATCH_CHUNK) jobs.push({ job: { batchId, from, to: Math.min(total, from + BATCH_CHUNK) - 1 } });
  return jobs;
}

/**
 * Delivers queued channels: claims a job's deliveries, renders them, sends them through their
 * provider, then records every outcome, the notifications' new status, their outbox events, batch
 * progress and retries in one transaction. Handlers are idempotent: a channel that is no longer
 * `queued` is left alone; one claimed by a worker that died is taken again when its lease ends.
 */
export class Dispatcher {
  /** Each worker's wake-up (`workQueue`). */
  private readonly wakes: Array<() => void> = [];
  private readonly templates = new Map<string, TemplateContent>();

  private readonly leaseSeconds: number;

  constructor(private readonly opts: DispatcherOptions) {
    this.leaseSeconds = opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  }

  async start(): Promise<void> {
    const { boss } = this.opts;
    const queue = { expireInSeconds: this.leaseSeconds, retryLimit: 10, retryDelay: 5, retryBackoff: true };
    await ensureQueue(boss, DISPATCH_QUEUE, queue);
    for (let i = 0; i < (this.opts.workers ?? 4); i++) {
      // a job fetched before `workQueue` answers finds the wake-up not yet known: it then waits for the poll
      let wake = (): void => undefined;
      wake = await workQueue<DispatchJob>(boss, DISPATCH_QUEUE, this.opts.pollSeconds ?? 0.5, async (job) => {
        await inJobSpan(DISPATCH_QUEUE, job.data, () => this.process(job.data));
        // more jobs may be waiting (a batch's fan-out): fetch again at once instead of after the interval
        wake();
      });
      this.wakes.push(wake);
    }
  }

  /** Jobs were just committed: fetch now rather than at the next poll. */
  kick(): void {
    for (const wake of this.wakes) wake();
  }

  async stop(): Promise<void> {
    await this.opts.boss.offWork(DISPATCH_QUEUE).catch(() => undefined);
  }

  async process(job: DispatchJob): Promise<void> {
    const [selector, values] = job.deliveryIds
      ? ['d.id = any($1::uuid[])', [job.deliveryIds]]
      : ['n.batch_id = $1 and n.batch_seq between $2 and $3', [job.batchId, job.from, job.to]];
    const { pool } = this.opts;
    const { rows: leased } = await pool.query<{ id: string; seconds: number }>(
      `select d.id, extract(epoch from d.claimed_until - now())::float8 as seconds
         from notify.deliveries d join notify.notifications n on n.id = d.notification_id
        where ${selector} and d.status = 'queued' and d.claimed_until >= now()`,
      values,
    );
    const { rows: claimed } = await pool.query<Claimed>(
      `update notify.deliveries d
          set claimed_until = now() + make_interval(secs => $${values.length + 1}), attempts = d.attempts + 1, updated_at = now()
         from notify.notifications n
        where n.id = d.notification_id and ${selector} and d.status = 'queued' and (d.claimed_until is null or d.claimed_until < now())
        returning d.id, d.notification_id, d.organization_id, d.environment, d.channel, d.provider, d.address, d.push_targets,
                  d.tracking_token, d.attempts, n.template_id, n.data, n.created_at as accepted_at`,
      [...values, this.leaseSeconds],
    );
    if (claimed.length) await this.record(await this.send(claimed));
    // another worker holds some of them (it may have died): they are tried again as their lease
    // ends, not after pg-boss's growing backoff (5, 10, 20… s after each try that came too early)
    if (leased.length) {
      const afterSeconds = Math.ceil(Math.max(...leased.map((l) => l.seconds))) + 1;
      await inTransaction(pool, (client) =>
        enqueueDispatch(this.opts.boss, client, [{ job: { deliveryIds: leased.map((l) => l.id) }, afterSeconds }]),
      );
    }
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

  /** Outcomes, statuses, events, batch progress and retries: one transaction. */
  private async record(outcomes: Outcome[]): Promise<void> {
    await inTransaction(this.opts.pool, async (client) => {
      const notificationIds = [...new Set(outcomes.map((o) => o.notificationId))];
      await lockNotifications(client, notificationIds);
      const col = <T>(pick: (o: Outcome) => T) => outcomes.map(pick);
      await client.query(
        `update notify.deliveries d
            set status = u.status, provider_message_id = coalesce(u.pmid, d.provider_message_id), reason = u.reason,
                latency_ms = coalesce(u.latency_ms, d.latency_ms),
                sent_at = case when u.status in ('sent', 'delivered') then now() else d.sent_at end,
                delivered_at = case when u.status = 'delivered' then now() else d.delivered_at end,
                failed_at = case when u.status in ('failed', 'undeliverable') then now() else d.failed_at end,
                next_attempt_at = case when u.retry_in is null then null else now() + make_interval(secs => u.retry_in) end,
                claimed_until = null, updated_at = now()
           from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::float8[]) as u(id, status, pmid, reason, latency_ms, retry_in)
          where d.id = u.id and d.status = any($7::text[])`,
        [
          col((o) => o.id),
          col((o): DeliveryStatus => CHANNEL_LIFECYCLE.target(o.trigger)),
          col((o) => o.providerMessageId),
          col((o) => o.reason),
          col((o) => o.latencyMs),
          col((o) => o.retryInSeconds),
          CHANNEL_LIFECYCLE.sources('provider.sent'),
        ],
      );
      const refreshed = await refreshNotifications(client, notificationIds);
      await recordNotificationEvents(client, 'notification.updated', await loadViews(client, notificationIds));
      await recordBatchProgress(client, refreshed);
      const retries = new Map<number, string[]>();
      for (const o of outcomes)
        if (o.retryInSeconds !== null) retries.set(o.retryInSeconds, [...(retries.get(o.retryInSeconds) ?? []), o.id]);
      await enqueueDispatch(
        this.opts.boss,
        client,
        [...retries].map(([afterSeconds, deliveryIds]) => ({ job: { deliveryIds }, afterSeconds })),
      );
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
