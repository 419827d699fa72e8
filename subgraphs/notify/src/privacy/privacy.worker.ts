import type pg from 'pg';
import type { Keyring } from '../../../../platform/crypto/keyring.js';
import { inTransaction } from '../../../../platform/db/transaction.js';
import type { EventStream } from '../../../../platform/events/event-stream.js';
import type { Logger } from '../../../../platform/logger.js';
import { ErasureWorker } from '../../../../platform/privacy/erasure.worker.js';
import { together } from '../../../../platform/sweep.js';
import { RetentionSweep, untilDone } from '../../../../platform/privacy/retention.js';
import { scrubEvents } from '../../../../platform/privacy/scrub.js';
import { eraseRecipient } from '../recipients/recipient.service.js';
import { eraseNotificationsSentTo, expireNotificationData } from '../notifications/notification.store.js';
import { NOTIFICATION_RESOURCE } from '../notifications/notification.events.js';
import { forgetIdempotentSends } from '../notifications/idempotency.js';
import { eraseSandboxMessages, expireSandboxBodies } from '../channels/sandbox.store.js';
import { recordBatchProgress, refreshNotifications } from '../notifications/progress.js';

/**
 * Notify's background privacy work: its part of every erasure (the recipient profile goes; the
 * notifications sent to the user's profile, addresses or codes keep their statuses without
 * recipient or content; the sandbox's copies, remembered answers and events follow) and its
 * retention sweep (notification bodies).
 */
export function notifyPrivacy(opts: {
  pool: pg.Pool;
  keyring: Keyring;
  events: EventStream;
  logger: Logger;
  sweepMs: number;
  retentionSweepMs: number;
}) {
  const { pool, events, logger } = opts;
  const erasures = new ErasureWorker<pg.PoolClient>({
    service: 'notify',
    pool,
    events,
    logger,
    sweepMs: opts.sweepMs,
    transaction: (work) => inTransaction(pool, work),
    erase: async (db, request) => {
      const tenant = { organizationId: request.organizationId, environment: request.environment };
      const recipient = await eraseRecipient(db, opts.keyring, tenant, request.userId);
      const to = {
        recipientId: request.userId,
        addresses: [...recipient.addresses, ...request.subject.addresses],
        ids: request.subject.notificationIds,
      };
      const ids = await eraseNotificationsSentTo(db, tenant, to, request.pseudonym);
      // a channel given up here moves its notification (and its batch) on
      await recordBatchProgress(db, await refreshNotifications(db, ids));
      return {
        recipientProfiles: recipient.erased,
        notifications: ids.length,
        sandboxMessages: await eraseSandboxMessages(db, ids, request.pseudonym),
        idempotentSends: await forgetIdempotentSends(db, tenant, ids),
        events: await scrubEvents(db, tenant, {
          resources: { type: NOTIFICATION_RESOURCE, ids },
          deliveryData: { key: 'notificationId', values: ids },
        }),
      };
    },
  });
  const retention = new RetentionSweep({
    service: 'notify',
    pool,
    logger,
    sweepMs: opts.retentionSweepMs,
    purge: async () => ({
      notificationData: await untilDone(() => expireNotificationData(pool)),
      sandboxBodies: await untilDone(() => expireSandboxBodies(pool)),
    }),
  });
  return together(erasures, retention);
}
