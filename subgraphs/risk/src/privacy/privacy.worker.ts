import type pg from 'pg';
import { inTransaction } from '../../../../platform/db/transaction.js';
import type { EventStream } from '../../../../platform/events/event-stream.js';
import type { Logger } from '../../../../platform/logger.js';
import { ErasureWorker } from '../../../../platform/privacy/erasure.worker.js';
import { scrubEvents } from '../../../../platform/privacy/scrub.js';
import { AccountStore } from '../accounts/account.store.js';
import { EVALUATION_RESOURCE } from '../evaluation/evaluation.events.js';
import { eraseEvaluationsOf } from '../evaluation/evaluation.service.js';
import { forgetAccounts } from '../graph/graph.store.js';
import { graphChanged } from '../graph/graph.owner.js';

/**
 * Risk's part of every erasure: the user's account profiles go, the evaluations of their accounts'
 * transactions keep their decisions without metadata or names, the graph forgets their devices and
 * IP addresses, and the evaluations' events are scrubbed.
 */
export function riskErasures(opts: { pool: pg.Pool; events: EventStream; logger: Logger; sweepMs: number }) {
  return new ErasureWorker<pg.PoolClient>({
    service: 'risk',
    ...opts,
    transaction: (work) => inTransaction(opts.pool, work),
    erase: async (db, request) => {
      const tenant = { organizationId: request.organizationId, environment: request.environment };
      const accountIds = await AccountStore.eraseUser(db, tenant, request.userId);
      const evaluationIds = await eraseEvaluationsOf(db, tenant, accountIds);
      // the owner of the tenant's graph reloads it once this commits
      await graphChanged(db, tenant);
      return {
        accountProfiles: accountIds.length,
        evaluations: evaluationIds.length,
        graph: await forgetAccounts(db, tenant, accountIds),
        events: await scrubEvents(db, tenant, { resources: { type: EVALUATION_RESOURCE, ids: evaluationIds } }),
      };
    },
  });
}
