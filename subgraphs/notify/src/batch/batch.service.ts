import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../../../platform/errors.js';
import { isUuid } from '../../../../platform/ids.js';
import { inTransaction } from '../../../../platform/db/transaction.js';
import type { NotifyShared } from '../notify.shared.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { RecipientService } from '../recipients/recipient.service.js';
import { TemplateService } from '../templates/template.service.js';
import { claimIdempotencyKey, requestHash, storeIdempotentResponse, validateIdempotencyKey } from '../notifications/idempotency.js';
import {
  buildNotification,
  checkTemplateChannels,
  missingData,
  requiredFields,
  isDataObject,
  validateChannels,
} from '../notifications/notification.prepare.js';
import { insertNotifications, type NewNotification } from '../notifications/notification.store.js';
import { uuidv7 } from '../notifications/uuidv7.js';
import { batchSnapshot, recordBatchEvents } from './batch.events.js';
import { BATCH_COLUMNS, loadBatch, toBatchView, type BatchView } from './batch.store.js';
import { BATCH_LIFECYCLE } from '../notifications/notification.lifecycle.js';

export const MAX_BATCH_RECIPIENTS = 10_000;
/** At most this many per-recipient problems are listed in a 400. */
const MAX_LISTED_ERRORS = 50;

export interface BatchCommand {
  template: string;
  templateVersion?: number | null;
  channels: string[];
  recipients: Array<{ to: string; data?: Record<string, unknown> | null }>;
}

export function batchFromSnapshot(s: Record<string, unknown>): BatchView {
  return {
    ...s,
    createdAt: new Date(s.createdAt as string),
    completedAt: s.completedAt ? new Date(s.completedAt as string) : null,
  } as BatchView;
}

export class BatchService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: NotifyShared,
    private readonly tenant: Tenant,
  ) {}

  /**
   * Accepts up to 10,000 recipients at once: every recipient's data is checked against the template
   * first (400 listing the problems), then the batch, its notifications and deliveries go in with one
   * multi-row INSERT per table in one transaction; the dispatch workers claim the queued deliveries
   * (100 at a time).
   */
  async send(cmd: BatchCommand, idempotencyKey?: string): Promise<BatchView> {
    const key = validateIdempotencyKey(idempotencyKey);
    const errors: string[] = [];
    const channels = validateChannels(cmd.channels, errors);
    if (!cmd.template.trim()) errors.push('template must not be empty');
    if (!cmd.recipients.length) errors.push('recipients must contain at least one recipient');
    if (cmd.recipients.length > MAX_BATCH_RECIPIENTS) {
      errors.push(
        `recipients must contain at most ${MAX_BATCH_RECIPIENTS.toLocaleString('en')} recipients (got ${cmd.recipients.length.toLocaleString('en')})`,
      );
    }
    if (errors.length) throw badInput(errors);

    const template = await new TemplateService(this.em, this.tenant).get(cmd.template, cmd.templateVersion);
    checkTemplateChannels(template, channels, errors);
    if (errors.length) throw badInput(errors);
    const required = requiredFields(template, channels);
    const addressing = await new RecipientService(this.em, this.tenant).resolve(cmd.recipients.map((r) => r.to));
    const items: NewNotification[] = [];
    cmd.recipients.forEach((r, i) => {
      const data = r.data ?? {};
      if (!r.to.trim()) errors.push(`recipients[${i}].to must not be empty`);
      else if (!addressing.has(r.to)) errors.push(`recipients[${i}].to: recipient ${r.to} not found`);
      if (!isDataObject(data)) errors.push(`recipients[${i}].data must be a JSON object`);
      else errors.push(...missingData(template, required, data, `recipients[${i}].data`));
      if (!errors.length)
        items.push(buildNotification(r.to, addressing.get(r.to)!, data, channels, this.tenant.environment, this.deps.providers, i));
    });
    if (errors.length) {
      const more = errors.length - MAX_LISTED_ERRORS;
      throw badInput(more > 0 ? [...errors.slice(0, MAX_LISTED_ERRORS), `… and ${more} more`] : errors);
    }

    const id = uuidv7();
    const done = items.filter((n) => n.deliveries.every((d) => d.status !== 'queued')).length;
    const batch = await inTransaction(this.deps.pool, async (client) => {
      if (key) {
        const claim = await claimIdempotencyKey(client, this.tenant, 'batch', key, requestHash(cmd));
        if ('replay' in claim) return batchFromSnapshot(claim.replay);
      }
      const { rows } = await client.query(
        `insert into notify.batches (id, organization_id, environment, template_id, template_name, template_version, channels, total, processed, failed, status, completed_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, case when $10 = 'completed' then now() end) returning ${BATCH_COLUMNS}`,
        [
          id,
          this.tenant.organizationId,
          this.tenant.environment,
          template.id,
          template.name,
          template.version,
          JSON.stringify(channels),
          items.length,
          done,
          BATCH_LIFECYCLE.target(done === items.length ? 'accepted.all_processed' : 'accepted'),
        ],
      );
      const created = toBatchView(rows[0]);
      await insertNotifications(client, this.tenant, template, items, id);
      await recordBatchEvents(client, [{ event: BATCH_LIFECYCLE.eventOf('accepted')!, batch: created }]);
      if (key) await storeIdempotentResponse(client, this.tenant, 'batch', key, batchSnapshot(created));
      return created;
    });
    this.deps.kick();
    return batch;
  }

  /** The caller's batch with this id, or null. */
  find(id: string): Promise<BatchView | null> {
    return isUuid(id) ? loadBatch(this.deps.pool, this.tenant, id) : Promise.resolve(null);
  }
}
