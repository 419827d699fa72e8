import { LockMode } from '@mikro-orm/core';
import { findOneBy } from '../../../../platform/db/find-one-by.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantColumns, type Tenant } from '../../../../platform/auth/tenant.js';
import { conflict, invalid, notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { isUuid } from '../../../../platform/ids.js';
import type { Logger } from '../../../../platform/logger.js';
import { MobileMoneyProviderError, type AccountLookup, type MobileMoneyAdapter } from './adapters/adapter.js';
import type { MobileMoneyAdapters } from './adapters/registry.js';
import { decideMobileMoney, type MobileMoneyDecision } from './mobile-money.decision.js';
import { MobileMoneyVerification } from './mobile-money.entity.js';
import { mobileMoneySnapshot, recordMobileMoneyEvent } from './mobile-money.events.js';
import { pastRetention, RETENTION_CHUNK, untilDone } from '../../../../platform/privacy/retention.js';
import { isErasedUserId, type ErasedUser, type PersonalDataHolder } from '../../../../platform/privacy/personal-data.js';
import type pg from 'pg';
import { MOBILE_MONEY_LIFECYCLE, type MobileMoneyStatus } from './mobile-money.lifecycle.js';
import { validateAccount, type MobileMoneyProvider } from './mobile-money.providers.js';

export interface MobileMoneyRequest {
  userId: string;
  phoneNumber: string;
  provider: MobileMoneyProvider;
  country: string;
  expectedName?: string | null;
}

export interface MobileMoneyDeps {
  adapters: MobileMoneyAdapters;
  /** One lookup's deadline at the operator (MOBILE_MONEY_TIMEOUT_MS). */
  timeoutMs: number;
  logger: Logger;
}

export interface MobileMoneyFilter {
  userId?: string | null;
  status?: MobileMoneyStatus | null;
  provider?: MobileMoneyProvider | null;
}

/** Value checks (422); GraphQL has checked presence and types (400). */
export function validateMobileMoneyRequest(req: MobileMoneyRequest): string[] {
  const errors: string[] = [];
  const userId = req.userId.trim();
  if (!userId) errors.push('userId must not be empty');
  if (userId.length > 255) errors.push('userId must be at most 255 characters');
  if (req.expectedName != null && req.expectedName.length > 255) errors.push('expectedName must be at most 255 characters');
  return [...errors, ...validateAccount(req)];
}

export class MobileMoneyService implements PersonalDataHolder {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly deps: MobileMoneyDeps,
  ) {}

  /**
   * Records the verification PENDING (committed, with its event), asks the operator while the
   * request waits (at most MOBILE_MONEY_TIMEOUT_MS), then records the outcome with its event:
   * VERIFIED, NAME_MISMATCH, NOT_FOUND or PROVIDER_ERROR. An operator failure is an outcome,
   * never an error of the request.
   */
  async verify(req: MobileMoneyRequest): Promise<MobileMoneyVerification> {
    const errors = validateMobileMoneyRequest(req);
    if (errors.length) throw invalid(errors);
    const adapter = this.deps.adapters.adapterFor(this.tenant.environment, req.provider);
    const pending = await this.em.transactional(async (em) => {
      const { status, event } = MOBILE_MONEY_LIFECYCLE.fire(null, 'submitted');
      const v = em.create(MobileMoneyVerification, {
        ...tenantColumns(this.tenant),
        userId: req.userId.trim(),
        phoneNumber: req.phoneNumber,
        provider: req.provider,
        country: req.country,
        expectedName: req.expectedName?.trim() || null,
        status,
        adapter: adapter.name,
      });
      await em.flush();
      recordMobileMoneyEvent(em, event, v);
      return v;
    });
    return this.lookUpAndSettle(pending, adapter);
  }

  /** Asks the operator again about a PROVIDER_ERROR verification (409 from any other status). */
  async retry(id: string): Promise<MobileMoneyVerification> {
    await this.get(id);
    const { verification, adapter } = await this.em.transactional(async (em) => {
      const v = await this.locked(em, id);
      if (!v.phoneNumber) throw conflict(`The user of mobile money verification ${id} was erased; start a new verification`);
      const { status, event } = MOBILE_MONEY_LIFECYCLE.fire(v.status, 'retried');
      const adapter = this.deps.adapters.adapterFor(v.environment, v.provider);
      Object.assign(v, { status, adapter: adapter.name, attempts: v.attempts + 1, failureReason: null });
      await em.flush();
      recordMobileMoneyEvent(em, event, v);
      return { verification: v, adapter };
    });
    return this.lookUpAndSettle(verification, adapter);
  }

  async exportUser(userId: string): Promise<unknown[]> {
    const all = await this.em.find(MobileMoneyVerification, { userId, ...this.tenant }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return all.map(mobileMoneySnapshot);
  }

  /** The number, the names (expected and the operator's holder) and the comparison go; the outcome stays. */
  eraseUser({ userId, pseudonym }: ErasedUser): Promise<number> {
    return this.em.nativeUpdate(
      MobileMoneyVerification,
      { userId, ...this.tenant },
      { userId: pseudonym, phoneNumberSealed: null, expectedName: null, accountHolder: null, nameMatchExplanation: null },
    );
  }

  /** Retention: the operator's answers about holders (and the comparison quoting them) past every organization's `providerResponses` period. */
  static expireOperatorAnswers(pool: pg.Pool): Promise<number> {
    return untilDone(async () => {
      const { rowCount } = await pool.query(
        `update verification.mobile_money_verifications set account_holder = null, name_match_explanation = null
          where id in (select v.id from verification.mobile_money_verifications v
                        where (v.account_holder is not null or v.name_match_explanation is not null)
                          and ${pastRetention('providerResponses', 'v', 'created_at')} limit ${RETENTION_CHUNK})`,
      );
      return rowCount ?? 0;
    });
  }

  find(id: string): Promise<MobileMoneyVerification | null> {
    return isUuid(id) ? findOneBy(this.em, MobileMoneyVerification, { id, ...this.tenant }) : Promise.resolve(null);
  }

  async get(id: string): Promise<MobileMoneyVerification> {
    const v = await this.find(id);
    if (!v) throw notFound('Mobile money verification', id);
    return v;
  }

  /** The organization's verifications (of one user, in one status, of one provider), newest first. */
  list(filter: MobileMoneyFilter, page: ConnectionArgs): Promise<Connection<MobileMoneyVerification>> {
    return paginate(
      this.em,
      MobileMoneyVerification,
      {
        ...(filter.userId != null && { userId: filter.userId }),
        ...(filter.status != null && { status: filter.status }),
        ...(filter.provider != null && { provider: filter.provider }),
        // last: a session's user wins over the filter's
        ...this.tenant,
      },
      page,
    );
  }

  private locked(em: EntityManager, id: string): Promise<MobileMoneyVerification> {
    return em.findOneOrFail(
      MobileMoneyVerification,
      { id, ...tenantColumns(this.tenant) },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
  }

  /** The operator's answer (outside any transaction), then the outcome recorded under the row's lock. */
  private async lookUpAndSettle(pending: MobileMoneyVerification, adapter: MobileMoneyAdapter): Promise<MobileMoneyVerification> {
    const decision = await this.ask(adapter, pending);
    return this.em.transactional(async (em) => {
      const v = await this.locked(em, pending.id);
      // the interrupted-lookup sweep settled it meanwhile (a lookup past twice the deadline): keep that
      if (!MOBILE_MONEY_LIFECYCLE.allows(v.status, decision.trigger)) return v;
      const { status, event } = MOBILE_MONEY_LIFECYCLE.fire(v.status, decision.trigger);
      const now = new Date();
      // the user was erased while the operator answered: the outcome is kept, the holder's name is not
      const erased = isErasedUserId(v.userId);
      Object.assign(v, {
        status,
        accountHolder: erased ? null : decision.accountHolder,
        accountStatus: decision.accountStatus,
        nameMatch: decision.nameMatch,
        nameMatchScore: decision.nameMatchScore,
        nameMatchExplanation: erased ? null : decision.nameMatchExplanation,
        failureReason: decision.failureReason,
        checkedAt: now,
        verifiedAt: status === 'VERIFIED' ? now : null,
      });
      await em.flush();
      recordMobileMoneyEvent(em, event, v);
      return v;
    });
  }

  private async ask(adapter: MobileMoneyAdapter, v: MobileMoneyVerification): Promise<MobileMoneyDecision> {
    const deadline = AbortSignal.timeout(this.deps.timeoutMs);
    let lookup: AccountLookup | { outcome: 'error'; reason: string };
    try {
      lookup = await withDeadline(
        // looked up right after it was created or retried: the number is there
        adapter.lookup({ phoneNumber: v.phoneNumber!, provider: v.provider, country: v.country, expectedName: v.expectedName }, deadline),
        deadline,
        () => new MobileMoneyProviderError(`${v.provider} did not answer within ${this.deps.timeoutMs} ms`),
      );
    } catch (err) {
      if (err instanceof MobileMoneyProviderError) {
        this.deps.logger.warn({ verificationId: v.id, adapter: adapter.name, reason: err.message }, 'mobile money operator failed');
        lookup = { outcome: 'error', reason: err.message };
      } else {
        // a fault of ours or of a library: logged in full, not shown to the client
        this.deps.logger.error({ err, verificationId: v.id, adapter: adapter.name }, 'mobile money lookup failed unexpectedly');
        lookup = { outcome: 'error', reason: `The ${v.provider} lookup failed unexpectedly` };
      }
    }
    return decideMobileMoney(lookup, v.expectedName);
  }
}

/** `promise`, or `onDeadline()`'s error once `signal` aborts (an adapter that ignores its signal cannot hold the request). */
function withDeadline<T>(promise: Promise<T>, signal: AbortSignal, onDeadline: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onDeadline());
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

export const INTERRUPTED_REASON = 'The lookup was interrupted before the operator answered (the service stopped); retry';

/**
 * Settles the lookups a crash interrupted: verifications PENDING for longer than `olderThanMs`
 * (twice the lookup deadline: no request still waits for them) become PROVIDER_ERROR, which may
 * be retried. Row by row under lock, with their events; safe on every instance at once.
 */
export async function settleInterruptedLookups(em: EntityManager, olderThanMs: number, batch = 100): Promise<number> {
  let total = 0;
  for (;;) {
    const settled = await em.fork().transactional(async (tx) => {
      const rows = await tx.execute<Array<{ id: string }>>(
        `select id from verification.mobile_money_verifications
          where status = any(?::text[]) and updated_at < now() - make_interval(secs => ?)
          order by updated_at limit ${batch} for update skip locked`,
        [`{${MOBILE_MONEY_LIFECYCLE.sources('interrupted').join(',')}}`, olderThanMs / 1000],
      );
      const found = rows.length ? await tx.find(MobileMoneyVerification, { id: { $in: rows.map((r) => r.id) } }) : [];
      for (const v of found) {
        const { status, event } = MOBILE_MONEY_LIFECYCLE.fire(v.status, 'interrupted');
        Object.assign(v, { status, failureReason: INTERRUPTED_REASON, checkedAt: new Date() });
        await tx.flush();
        recordMobileMoneyEvent(tx, event, v);
      }
      return found.length;
    });
    total += settled;
    if (settled < batch) return total;
  }
}
