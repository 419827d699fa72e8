import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { findOneBy } from '../../../../platform/db/find-one-by.js';
import { recordAudit, type AuditActor } from '../../../../platform/audit/audit.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, invalid, notFound } from '../../../../platform/errors.js';
import { isUuid } from '../../../../platform/ids.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import type { ListKind } from '../../../../screening/index.js';
import { tenantColumns, type Tenant } from '../../../../platform/auth/tenant.js';
import type { ScreeningSearch } from '../aml/aml.service.js';
import { screenedPersonErrors } from '../screened-person/screened-person.js';
import { isCountryCode } from '../../../../platform/countries.js';
import { WatchlistAlert, WatchlistMatch, WatchlistSubscription, type AlertMatch } from './watchlist.entity.js';
import {
  ALERT_LIFECYCLE,
  diffMatches,
  SUBSCRIPTION_LIFECYCLE,
  WATCHLIST_LISTS,
  type AlertStatus,
  type SubscriptionStatus,
} from './watchlist.lifecycle.js';
import { recordAlertEvent, recordSubscriptionEvent, watchlistRecord } from './watchlist.events.js';
import { sqlOf } from '../../../../platform/db/transaction.js';
import type { ErasedUser, PersonalDataHolder } from '../../../../platform/privacy/personal-data.js';

/** Hits considered per scan. */
export const MAX_WATCHLIST_MATCHES = 25;

export interface WatchlistDeps {
  screening: ScreeningSearch;
  /** Time between two scheduled scans of a subscription. */
  scanIntervalMs: number;
  matchThreshold: number;
}

export interface SubscribeCommand {
  userId: string;
  fullName: string;
  dateOfBirth?: string | null;
  nationality?: string | null;
  country?: string | null;
  lists?: string[] | null;
}

export interface ReviewAlertCommand {
  status: 'REVIEWED' | 'DISMISSED';
  reviewedBy: string;
  note: string;
}

export function validateSubscription(cmd: SubscribeCommand): string[] {
  const errors: string[] = [];
  if (!cmd.userId.trim()) errors.push('userId must not be empty');
  errors.push(...screenedPersonErrors(cmd));
  if (cmd.country != null && !isCountryCode(cmd.country)) errors.push('country must be an uppercase ISO 3166-1 alpha-2 country code');
  if (cmd.lists != null) {
    if (!cmd.lists.length) errors.push(`lists must contain at least one of: ${WATCHLIST_LISTS.join(', ')}`);
    // the kinds a subscription may watch are fewer than the graph's ScreeningListKind
    cmd.lists.forEach((l, i) => {
      if (!(WATCHLIST_LISTS as readonly string[]).includes(l)) errors.push(`lists[${i}] must be one of: ${WATCHLIST_LISTS.join(', ')}`);
    });
  }
  return errors;
}

/**
 * One scan of one subscription, in the caller's transaction: a hit not matched before creates an
 * OPEN alert (watchlist.alert); a match no longer found is cleared (watchlist.clear, the alert
 * gets `clearedAt`); the subscription's next scan is scheduled.
 */
export async function scanSubscription(
  em: EntityManager,
  sub: WatchlistSubscription,
  deps: WatchlistDeps,
  now = new Date(),
): Promise<{ added: WatchlistAlert[]; cleared: WatchlistAlert[] }> {
  // an erased person is no longer monitored (their subscription was cancelled with the erasure)
  if (!sub.fullName) return { added: [], cleared: [] };
  const versions = deps.screening.versions();
  const hits = deps.screening.search({
    fullName: sub.fullName,
    dateOfBirth: sub.dateOfBirth ?? undefined,
    nationality: sub.nationality ?? undefined,
    entityType: 'INDIVIDUAL',
    kinds: sub.lists,
    threshold: sub.matchThreshold,
    limit: MAX_WATCHLIST_MATCHES,
  });
  const current = await em.find(WatchlistMatch, { subscriptionId: sub.id, clearedAt: null });
  const { added, kept, vanished } = diffMatches(hits, current);
  const tenant = { organizationId: sub.organizationId, environment: sub.environment };

  const created: WatchlistAlert[] = [];
  for (const hit of added) {
    const match: AlertMatch = {
      listName: hit.source,
      matchScore: Math.round(hit.score * 1000) / 1000,
      matchedName: hit.matchedName,
      source: hit.source,
      addedDate: hit.addedDate ?? null,
      kind: hit.kind,
      externalId: hit.externalId,
      primaryName: hit.primaryName,
      listVersion: hit.listVersion,
      programs: hit.programs,
      entityType: hit.entityType,
    };
    const t = ALERT_LIFECYCLE.fire(null, 'detected');
    const alert = em.create(WatchlistAlert, {
      ...tenant,
      subscriptionId: sub.id,
      userId: sub.userId,
      status: t.status,
      match,
      detectedAt: now,
      createdAt: now,
    });
    em.create(WatchlistMatch, {
      subscriptionId: sub.id,
      source: hit.source,
      externalId: hit.externalId,
      score: match.matchScore,
      alertId: alert.id,
      firstDetectedAt: now,
      lastSeenAt: now,
    });
    recordAlertEvent(em, t.event, alert);
    created.push(alert);
  }
  for (const [m, hit] of kept) Object.assign(m, { score: Math.round(hit.score * 1000) / 1000, lastSeenAt: now });

  const cleared: WatchlistAlert[] = [];
  if (vanished.length) {
    const alerts = await em.find(WatchlistAlert, { id: { $in: vanished.map((m) => m.alertId) } });
    for (const m of vanished) {
      m.clearedAt = now;
      const alert = alerts.find((a) => a.id === m.alertId);
      if (!alert) continue;
      alert.clearedAt = now;
      recordAlertEvent(em, ALERT_LIFECYCLE.fire(alert.status, 'cleared').event, alert);
      cleared.push(alert);
    }
  }
  Object.assign(sub, { lastScanAt: now, nextScanAt: new Date(now.getTime() + deps.scanIntervalMs), scannedVersions: versions });
  return { added: created, cleared };
}

/** Watchlist monitoring for one tenant: subscriptions, their alerts and the reviews. */
export class WatchlistService implements PersonalDataHolder {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly deps: WatchlistDeps,
  ) {}

  /** ACTIVE subscription, screened at once (a user already listed gets an alert now), next scan scheduled. */
  async subscribe(cmd: SubscribeCommand): Promise<WatchlistSubscription> {
    const errors = validateSubscription(cmd);
    if (errors.length) throw invalid(errors);
    try {
      return await this.em.transactional(async (em) => {
        const t = SUBSCRIPTION_LIFECYCLE.fire(null, 'subscribe');
        const sub = em.create(WatchlistSubscription, {
          ...this.tenant,
          userId: cmd.userId.trim(),
          fullName: cmd.fullName.trim().replace(/\s+/g, ' '),
          dateOfBirth: cmd.dateOfBirth ?? null,
          nationality: cmd.nationality ?? null,
          country: cmd.country ?? null,
          lists: (cmd.lists?.length ? [...new Set(cmd.lists)] : [...WATCHLIST_LISTS]) as ListKind[],
          status: t.status,
          matchThreshold: this.deps.matchThreshold,
        });
        // the unique "one ACTIVE subscription per user" index answers before anything else is written
        await em.flush();
        await scanSubscription(em, sub, this.deps);
        recordSubscriptionEvent(em, t.event, sub);
        return sub;
      });
    } catch (err) {
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      this.em.clear();
      const existing = await this.em.findOne(WatchlistSubscription, {
        ...this.tenant,
        userId: cmd.userId.trim(),
        status: SUBSCRIPTION_LIFECYCLE.target('subscribe'),
      });
      throw conflict(
        `User ${cmd.userId} already has an ACTIVE watchlist subscription${existing ? ` (${existing.id})` : ''}; unsubscribe it first`,
      );
    }
  }

  /** ACTIVE → CANCELLED (cancelledAt set, no more scans). */
  async cancel(id: string): Promise<WatchlistSubscription> {
    await this.getSubscription(id);
    return this.em.transactional(async (em) => {
      const sub = await em.findOneOrFail(
        WatchlistSubscription,
        { id, ...this.tenant },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      const t = SUBSCRIPTION_LIFECYCLE.fire(sub.status, 'unsubscribe');
      Object.assign(sub, { status: t.status, cancelledAt: new Date(), nextScanAt: null });
      recordSubscriptionEvent(em, t.event, sub);
      return sub;
    });
  }

  async exportUser(userId: string): Promise<unknown[]> {
    const order = { orderBy: { createdAt: 'asc', id: 'asc' } } as const;
    const [subscriptions, alerts] = await Promise.all([
      this.em.find(WatchlistSubscription, { userId, ...this.tenant }, order),
      this.em.find(WatchlistAlert, { userId, ...this.tenant }, order),
    ]);
    return [...subscriptions.map(watchlistRecord), ...alerts.map(watchlistRecord)];
  }

  /**
   * Monitoring of the user stops (an ACTIVE subscription is cancelled) and the person monitored goes
   * (name, date of birth, nationality, country; reviewers' notes); alerts stay with the list entries
   * they matched.
   */
  async eraseUser({ userId, pseudonym }: ErasedUser): Promise<number> {
    const { rows } = await sqlOf(this.em).query<{ n: number }>(
      `with subscriptions as (
         update verification.watchlist_subscriptions
            set user_id = $4, full_name = null, date_of_birth_plaintext = null, date_of_birth_sealed = null, nationality = null, country = null, next_scan_at = null,
                status = case when status = any($5::text[]) then $6 else status end,
                cancelled_at = case when status = any($5::text[]) then now() else cancelled_at end
          where organization_id = $1 and environment = $2 and user_id = $3 returning 1),
       alerts as (
         update verification.watchlist_alerts set user_id = $4, review_note = null
          where organization_id = $1 and environment = $2 and user_id = $3 returning 1)
       select ((select count(*) from subscriptions) + (select count(*) from alerts))::int as n`,
      [
        this.tenant.organizationId,
        this.tenant.environment,
        userId,
        pseudonym,
        SUBSCRIPTION_LIFECYCLE.sources('unsubscribe'),
        SUBSCRIPTION_LIFECYCLE.target('unsubscribe'),
      ],
    );
    return rows[0]?.n ?? 0;
  }

  /** The caller's subscription with this id, or null. */
  findSubscription(id: string): Promise<WatchlistSubscription | null> {
    return isUuid(id) ? findOneBy(this.em, WatchlistSubscription, { id, ...this.tenant }) : Promise.resolve(null);
  }

  /** The caller's subscriptions among these ids (one query for the alerts of a page). */
  findSubscriptions(ids: readonly string[]): Promise<WatchlistSubscription[]> {
    const valid = ids.filter(isUuid);
    return valid.length ? this.em.find(WatchlistSubscription, { id: { $in: valid }, ...this.tenant }) : Promise.resolve([]);
  }

  async getSubscription(id: string): Promise<WatchlistSubscription> {
    const sub = await this.findSubscription(id);
    if (!sub) throw notFound('Watchlist subscription', id);
    return sub;
  }

  /** The organization's subscriptions (of one user, in one status), newest first. */
  listSubscriptions(
    filter: { status?: SubscriptionStatus | null; userId?: string | null },
    page: ConnectionArgs,
  ): Promise<Connection<WatchlistSubscription>> {
    return paginate(
      this.em,
      WatchlistSubscription,
      {
        ...(filter.status != null && { status: filter.status }),
        ...(filter.userId != null && { userId: filter.userId }),
        // last: a session's user wins over the filter's
        ...this.tenant,
      },
      page,
    );
  }

  /** The organization's alerts (of one user, one subscription, in one status: OPEN is the review queue), newest first. */
  listAlerts(
    filter: { status?: AlertStatus | null; userId?: string | null; subscriptionId?: string | null },
    page: ConnectionArgs,
  ): Promise<Connection<WatchlistAlert>> {
    return paginate(
      this.em,
      WatchlistAlert,
      {
        ...(filter.status != null && { status: filter.status }),
        ...(filter.userId != null && { userId: filter.userId }),
        // an id that is no subscription's matches none
        ...(filter.subscriptionId != null && { subscriptionId: { $in: isUuid(filter.subscriptionId) ? [filter.subscriptionId] : [] } }),
        // last: a session's user wins over the filter's
        ...this.tenant,
      },
      page,
    );
  }

  /** The caller's alert with this id, or null. */
  findAlert(id: string): Promise<WatchlistAlert | null> {
    return isUuid(id) ? findOneBy(this.em, WatchlistAlert, { id, ...this.tenant }) : Promise.resolve(null);
  }

  async getAlert(id: string): Promise<WatchlistAlert> {
    const alert = await this.findAlert(id);
    if (!alert) throw notFound('Watchlist alert', id);
    return alert;
  }

  /** OPEN → REVIEWED or DISMISSED, with the reviewer and a note. */
  async reviewAlert(id: string, cmd: ReviewAlertCommand, actor: AuditActor): Promise<WatchlistAlert> {
    await this.getAlert(id);
    return this.em.transactional(async (em) => {
      const alert = await em.findOneOrFail(WatchlistAlert, { id, ...this.tenant }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      const t = ALERT_LIFECYCLE.fire(alert.status, cmd.status === 'REVIEWED' ? 'review' : 'dismiss');
      Object.assign(alert, { status: t.status, reviewedBy: cmd.reviewedBy, reviewNote: cmd.note, reviewedAt: new Date() });
      recordAlertEvent(em, t.event, alert);
      await recordAudit(em, {
        ...tenantColumns(this.tenant),
        action: 'watchlist_alert.reviewed',
        actor,
        reviewer: cmd.reviewedBy,
        resourceType: 'watchlist_alert',
        resourceId: alert.id,
        userId: alert.userId,
        details: { status: alert.status },
      });
      return alert;
    });
  }
}
