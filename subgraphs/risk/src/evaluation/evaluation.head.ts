import type pg from 'pg';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type { Profile } from '../graph/graph.facts.js';

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

/**
 * The heads of a tenant's evaluations that ask in the same turn of the event loop, read in one
 * statement (a pooled connection taken and released at once) instead of one each: under load
 * several evaluations arrive together, and each statement costs a socket write and its execution
 * in PostgreSQL. Each read still starts after its evaluation arrived, so a rule or profile change
 * committed before then is seen, as with a read of its own.
 */
export class EvaluationHeads {
  private readonly batches = new Map<string, Batch>();
  /** Statements run (for tests and metrics). */
  statements = 0;

  constructor(private readonly pool: pg.Pool) {}

  read(tenant: Tenant, sender: string, receiver: string): Promise<EvaluationHead> {
    const key = `${tenant.organizationId}\u0000${tenant.environment}`;
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
    this.statements += 1;
    try {
      const { rows } = await this.pool.query<EvaluationHead>({
        name: 'risk_evaluation_heads',
        text: `select (select revision::text from risk.rule_sets where organization_id = $1 and environment = $2) as revision,
          (select coalesce(json_agg(json_build_object('account_id', a.account_id, 'full_name', a.full_name,
             'date_of_birth', a.date_of_birth, 'nationality', a.nationality)), '[]')
             from risk.account_profiles a where a.organization_id = $1 and a.environment = $2 and a.account_id = any($3::text[])) as profiles`,
        values: [batch.tenant.organizationId, batch.tenant.environment, [...batch.accounts]],
      });
      const { revision, profiles } = rows[0];
      for (const w of batch.waiters)
        w.resolve({ revision, profiles: profiles.filter((p) => p.account_id === w.accounts[0] || p.account_id === w.accounts[1]) });
    } catch (error) {
      for (const w of batch.waiters) w.reject(error);
    }
  }
}
