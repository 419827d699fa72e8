import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { badInput, notFound } from '../../../../platform/errors.js';
import type { Page } from '../../../../platform/graphql/pagination.js';
import { isUuid } from '../../../../platform/ids.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { Evaluation } from './evaluation.entity.js';
import type { EvaluationEngine } from './evaluation.engine.js';
import type { TransactionInput } from './evaluation.validation.js';

export interface EvaluationFilter {
  action?: string | null;
  transactionId?: string | null;
  sender?: string | null;
  receiver?: string | null;
  minScore?: number | null;
  maxScore?: number | null;
  from?: Date | null;
  to?: Date | null;
  mock?: boolean | null;
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

  async get(id: string): Promise<Evaluation> {
    const e = isUuid(id) ? await this.em.findOne(Evaluation, { id, ...this.tenant }) : null;
    if (!e) throw notFound('Evaluation', id);
    return e;
  }

  async list(filter: EvaluationFilter, page: number, limit: number): Promise<Page<Evaluation>> {
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
    if (filter.action) where.action = filter.action as Evaluation['action'];
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
    const [data, total] = await this.em.findAndCount(Evaluation, where, {
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit,
      offset: (page - 1) * limit,
    });
    return { data, total, page, limit };
  }
}
