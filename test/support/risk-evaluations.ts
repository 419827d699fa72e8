import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { postgresChannels } from '../../platform/db/listen.js';
import type { Logger } from '../../platform/logger.js';
import { TenantGraphs } from '../../subgraphs/risk/src/graph/graph.owner.js';
import type { Evaluation } from '../../subgraphs/risk/src/evaluation/evaluation.entity.js';
import { noFindings } from '../../subgraphs/risk/src/evaluation/evaluation.engine.js';

/** A live evaluation of a transfer (what the group commit writes), with neutral decision fields. */
export function evaluationOf(
  tenant: { organizationId: string; environment: string },
  t: { sender: string; receiver: string; amount: number; currency: string; at: Date; transactionId?: string },
): Evaluation {
  return {
    id: randomUUID(),
    organizationId: tenant.organizationId,
    environment: tenant.environment,
    transactionId: t.transactionId ?? randomUUID(),
    score: 0,
    action: 'allow',
    mock: false,
    amount: t.amount,
    currency: t.currency,
    sender: t.sender,
    receiver: t.receiver,
    channel: null,
    metadata: {},
    layers: {},
    layerScores: {},
    reasons: [],
    ...noFindings(),
    createdAt: t.at,
  } as unknown as Evaluation;
}

/** The tenants' graphs a test's engine owns (72 h cycle window), loading once `settled` resolves. */
export function testGraphs(url: string, pool: pg.Pool, logger: Logger, settled: () => Promise<void>): TenantGraphs {
  return new TenantGraphs({
    databaseUrl: url,
    events: postgresChannels(url),
    pool,
    cycleWindowHours: 72,
    internalSecret: 'test-internal-secret-0123456789',
    logger,
    settled,
  });
}
