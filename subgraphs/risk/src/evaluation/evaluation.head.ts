import type pg from 'pg';
import { tenantKey, type Tenant } from '../../../../platform/auth/tenant.js';
import type { Profile } from '../graph/graph.facts.js';
import type { Listening } from '../../../../platform/db/listen.js';
import type { EventStream } from '../../../../platform/events/event-stream.js';
import type { Logger } from '../../../../platform/logger.js';

/** What an evaluation reads before it computes: its tenant's rule-set revision and its parties' profiles. */
export interface EvaluationHead {
  revision: string | null;
  profiles: Profile[];
}

interface Waiter {
  accounts: readonly [string, string];
  resolve(head: EvaluationHead): void;
  reject(error: unknown): void;
}

interface Batch {
  tenant: Tenant;
  accounts: Set<string>;
  waiters: Waiter[];
}

/** Profiles a process holds per tenant at most; a tenant with more is held account by account, as read. */
const MAX_HELD_PER_TENANT = 250_000;

const PROFILE_JSON = `json_build_object('account_id', a.account_id, 'full_name', a.full_name, 'date_of_birth', a.date_of_birth,
  'nationality', a.nationality)`;

/**
 * The profiles a process holds for one tenant: those read, by account (null: it has none). `all`
 * when every profile of the tenant was read at once (its first read): an account not held then
 * has none — unless it was forgotten since.
 */
class TenantProfiles {
  readonly byAccount = new Map<string, Profile | null>();
  private readonly forgotten = new Set<string>();

  constructor(readonly all: boolean) {}

  get(account: string): Profile | null | undefined {
    const held = this.byAccount.get(account);
    if (held !== undefined) return held;
    return this.all && !this.forgotten.has(account) ? null : undefined;
  }

  hold(accounts: Iterable<string>, profiles: Profile[]): void {
    for (const account of accounts) {
      this.byAccount.set(account, null);
      this.forgotten.delete(account);
    }
    for (const p of profiles) this.byAccount.set(p.account_id, p);
  }

  /** The two parties' profiles, or null when either is not held. */
  parties(sender: string, receiver: string): Profile[] | null {
    const a = this.get(sender);
    const b = this.get(receiver);
    if (a === undefined || b === undefined) return null;
    return a === null ? (b === null ? [] : [b]) : b === null || b === a ? [a] : [a, b];
  }

  forget(account: string): void {
    this.byAccount.delete(account);
    if (this.all) this.forgotten.add(account);
  }

  get size(): number {
    return this.byAccount.size + this.forgotten.size;
  }
}

/**
 * The heads of a tenant's evaluations that ask in the same turn of the event loop, read in one
 * statement (a pooled connection taken and released at once) instead of one each: under load
 * several evaluations arrive together, and each statement costs a socket write and its execution
 * in PostgreSQL. Each read still starts after its evaluation arrived, so a rule or profile change
 * committed before then is seen, as with a read of its own.
 *
 * The profiles read are held — the tenant's first read takes all of them, up to
 * MAX_HELD_PER_TENANT — so the owner evaluates parties without a read (`held`); such an
 * evaluation is checked at its commit instead (the group commit refuses it as stale when a profile
 * it used changed, or one was added), then `forget` drops what it held of its parties.
 */
export class EvaluationHeads {
  private readonly batches = new Map<string, Batch>();
  private readonly profiles = new Map<string, TenantProfiles>();
  /** Statements run (for tests and metrics). */
  statements = 0;

  constructor(private readonly pool: pg.Pool) {}

  /** The parties' profiles as held (none for an account without one), or null when either is not held. */
  held(tenant: Tenant, sender: string, receiver: string): Profile[] | null {
    const held = this.profiles.get(tenantKey(tenant));
    return held ? held.parties(sender, receiver) : null;
  }

  /** Drops what is held of these accounts (an evaluation using it was stale): they are read again. */
  forget(tenant: Tenant, ...accounts: string[]): void {
    const held = this.profiles.get(tenantKey(tenant));
    for (const account of accounts) held?.forget(account);
  }

  read(tenant: Tenant, sender: string, receiver: string): Promise<EvaluationHead> {
    const key = tenantKey(tenant);
    let batch = this.batches.get(key);
    if (!batch) {
      const opened: Batch = { tenant, accounts: new Set(), waiters: [] };
      this.batches.set(key, opened);
      setImmediate(() => void this.flush(key, opened));
      batch = opened;
    }
    batch.accounts.add(sender).add(receiver);
    const waiters = batch.waiters;
    return new Promise((resolve, reject) => waiters.push({ accounts: [sender, receiver], resolve, reject }));
  }

  private async flush(key: string, batch: Batch): Promise<void> {
    this.batches.delete(key);
    try {
      let held = this.profiles.get(key);
      // past the bound, what is held is dropped and read again
      if (held && held.size > MAX_HELD_PER_TENANT) held = undefined;
      let head: EvaluationHead;
      if (held) head = await this.readHead(batch, false);
      else {
        // the tenant's first read: all its profiles, when they are not too many
        head = await this.readHead(batch, true);
        this.profiles.set(key, (held = new TenantProfiles(head.profiles.length <= MAX_HELD_PER_TENANT)));
        if (!held.all) head = await this.readHead(batch, false);
      }
      held.hold(batch.accounts, head.profiles);
      for (const w of batch.waiters) w.resolve({ revision: head.revision, profiles: held.parties(...w.accounts)! });
    } catch (error) {
      for (const w of batch.waiters) w.reject(error);
    }
  }

  /**
   * Drops a profile as soon as it changes anywhere (NOTIFY `risk_profiles`, from a trigger): the
   * commit's check would refuse an evaluation that used it, but an erased person's details should
   * not stay held until then. Notices missed while disconnected: everything held is dropped.
   */
  listen(events: Pick<EventStream, 'listen'>, logger: Logger): Promise<Listening> {
    return events.listen({
      channel: 'risk_profiles',
      logger,
      onNotification: (raw) => {
        if (!raw) return;
        const notice = JSON.parse(raw) as { organizationId: string; environment: string; accountId: string };
        this.forget({ organizationId: notice.organizationId, environment: notice.environment }, notice.accountId);
      },
      onReconnect: () => this.profiles.clear(),
    });
  }

  /** The revision and the batch's parties' profiles, or (`all`) every profile of the tenant up to one past the most held. */
  private async readHead(batch: Batch, all: boolean): Promise<EvaluationHead> {
    this.statements += 1;
    const revision = `(select revision::text from risk.rule_sets where organization_id = $1 and environment = $2) as revision`;
    const { rows } = await this.pool.query<EvaluationHead>(
      all
        ? {
            name: 'risk_evaluation_heads_all',
            text: `select ${revision}, (select coalesce(json_agg(${PROFILE_JSON}), '[]') from (select * from risk.account_profiles
                     where organization_id = $1 and environment = $2 limit $3) a) as profiles`,
            values: [batch.tenant.organizationId, batch.tenant.environment, MAX_HELD_PER_TENANT + 1],
          }
        : {
            name: 'risk_evaluation_heads',
            text: `select ${revision}, (select coalesce(json_agg(${PROFILE_JSON}), '[]') from risk.account_profiles a
                     where a.organization_id = $1 and a.environment = $2 and a.account_id = any($3::text[])) as profiles`,
            values: [batch.tenant.organizationId, batch.tenant.environment, [...batch.accounts]],
          },
    );
    return rows[0];
  }
}
