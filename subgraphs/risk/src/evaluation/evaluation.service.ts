import type { EntityManager } from '@mikro-orm/postgresql';
import { findOneBy } from '../../../../platform/db/find-one-by.js';
import type { FilterQuery } from '@mikro-orm/core';
import { badInput, notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { isUuid } from '../../../../platform/ids.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { Evaluation } from './evaluation.entity.js';
import type { EvaluationEngine } from './evaluation.engine.js';
import type { TransactionInput } from './evaluation.validation.js';
import { evaluationSnapshot } from './evaluation.events.js';
import type { Sql } from '../../../../platform/db/transaction.js';

export interface EvaluationFilter {
  action?: Evaluation['action'] | null;
  transactionId?: string | null;
  sender?: string | null;
  receiver?: string | null;
  minScore?: number | null;
  maxScore?: number | null;
  from?: Date | null;
  to?: Date | null;
  mock?: boolean | null;
  /** Only those this account sent or received (`party`: only as that side). */
  account?: { id: string; party?: 'sender' | 'receiver' | null } | null;
}

/** Evaluations of one tenant: evaluate (engine), look up, list with filters. */
export class EvaluationService {
  constructor(
    private readonly em: EntityManager,
    private readonly engine: EvaluationEngine,
    private readonly tenant: Tenant,
  ) {}

  evaluate(input: TransactionInput): Promise<Evaluation> {
    return this.engine.evaluate(this.tenant, input);
  }

  /** The caller's evaluation with this id, or null. */
  find(id: string): Promise<Evaluation | null> {
    return isUuid(id) ? findOneBy(this.em, Evaluation, { id, ...this.tenant }) : Promise.resolve(null);
  }

  async get(id: string): Promise<Evaluation> {
    const e = await this.find(id);
    if (!e) throw notFound('Evaluation', id);
    return e;
  }

  /** The evaluations of transactions these accounts sent or received, oldest first (a subject access request). */
  async exportOfAccounts(accountIds: readonly string[]): Promise<unknown[]> {
    if (!accountIds.length) return [];
    const ids = [...accountIds];
    const all = await this.em.find(
      Evaluation,
      { $or: [{ sender: { $in: ids } }, { receiver: { $in: ids } }], ...this.tenant },
      { orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    return all.map(evaluationSnapshot);
  }

  /** The organization's evaluations matching the filter, newest first. */
  async list(filter: EvaluationFilter, page: ConnectionArgs): Promise<Connection<Evaluation>> {
    const errors: string[] = [];
    for (const key of ['minScore', 'maxScore'] as const) {
      const v = filter[key];
      if (v != null && (v < 0 || v > 100)) errors.push(`${key} must be between 0 and 100`);
    }
    if (filter.minScore != null && filter.maxScore != null && filter.minScore > filter.maxScore)
      errors.push('minScore must not exceed maxScore');
    if (filter.from && filter.to && filter.from >= filter.to) errors.push('from must be before to');
    if (errors.length) throw badInput(errors);

    const where: FilterQuery<Evaluation> = { ...this.tenant };
    if (filter.action) where.action = filter.action;
    if (filter.transactionId) where.transactionId = filter.transactionId;
    if (filter.sender) where.sender = filter.sender;
    if (filter.receiver) where.receiver = filter.receiver;
    if (filter.mock != null) where.mock = filter.mock;
    if (filter.minScore != null || filter.maxScore != null) {
      where.score = {
        ...(filter.minScore != null ? { $gte: filter.minScore } : {}),
        ...(filter.maxScore != null ? { $lte: filter.maxScore } : {}),
      };
    }
    if (filter.from || filter.to) {
      where.createdAt = { ...(filter.from ? { $gte: filter.from } : {}), ...(filter.to ? { $lt: filter.to } : {}) };
    }
    const { account } = filter;
    if (account) {
      const sides = account.party ? [account.party] : (['sender', 'receiver'] as const);
      where.$and = [{ $or: sides.map((side) => ({ [side]: account.id })) }];
    }
    return paginate(this.em, Evaluation, where, page);
  }
}

/**
 * Erasure: the evaluations of transactions these accounts sent or received keep their decision
 * (score, action, reasons, rules) without the transaction's metadata (names and whatever the
 * integrator sent) and without the name screened for these accounts. Returns their ids.
 */
export async function eraseEvaluationsOf(db: Sql, tenant: Tenant, accountIds: readonly string[]): Promise<string[]> {
  if (!accountIds.length) return [];
  const { rows } = await db.query<{ id: string }>(
    `update risk.evaluations e
        set metadata = '{}', facts = e.facts #- '{txn,metadata}',
            sanctions_hits = (select coalesce(jsonb_agg(case when h ->> 'account' = any($3::text[]) then jsonb_set(h, '{name}', 'null') else h end
                                                        order by n), '[]')
                                from jsonb_array_elements(e.sanctions_hits) with ordinality as t(h, n))
      where e.organization_id = $1 and e.environment = $2 and (e.sender = any($3::text[]) or e.receiver = any($3::text[]))
      returning e.id`,
    [tenant.organizationId, tenant.environment, [...accountIds]],
  );
  return rows.map((r) => r.id);
}
