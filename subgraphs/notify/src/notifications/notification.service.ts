import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, notFound } from '../../../../platform/errors.js';
import type { Connection, ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { isUuid } from '../../../../platform/ids.js';
import { inTransaction } from '../../../../platform/db/transaction.js';
import type { NotifyShared } from '../notify.shared.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { RecipientService } from '../recipients/recipient.service.js';
import { TemplateService } from '../templates/template.service.js';
import { describeRenderError } from '../templates/template.render.js';
import { claimIdempotencyKey, requestHash, storeIdempotentResponse, validateIdempotencyKey } from './idempotency.js';
import {
  buildNotification,
  checkTemplateChannels,
  missingData,
  requiredFields,
  isDataObject,
  validateChannels,
} from './notification.prepare.js';
import { insertNotifications, listViews, loadView, loadViews, type ListFilter, type NotificationView } from './notification.store.js';
import { notificationSnapshot, recordNotificationEvents } from './notification.events.js';

export interface SendCommand {
  to: string;
  template: string;
  templateVersion?: number | null;
  channels: string[];
  data?: Record<string, unknown> | null;
}

/** A notification snapshot (events, idempotent replays) back as a view: ISO strings → dates. */
export function viewFromSnapshot(s: Record<string, unknown>): NotificationView {
  const d = (v: unknown) => (typeof v === 'string' ? new Date(v) : (v as null));
  const channels = (s.channels as Array<Record<string, unknown>>).map((c) => ({
    ...c,
    openedAt: d(c.openedAt),
    sentAt: d(c.sentAt),
    deliveredAt: d(c.deliveredAt),
    failedAt: d(c.failedAt),
    nextAttemptAt: d(c.nextAttemptAt),
    updatedAt: d(c.updatedAt),
  }));
  return { ...s, channels, createdAt: d(s.createdAt), updatedAt: d(s.updatedAt) } as unknown as NotificationView;
}

export class NotificationService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: NotifyShared,
    private readonly tenant: Tenant,
  ) {}

  /**
   * Accepts one notification: validated (400 with every problem; unknown template or recipient
   * 404), stored with one `queued` delivery per channel in one transaction (the
   * deliveries are the dispatch queue), then delivered by the workers. With an Idempotency-Key, a repeat returns the first response.
   */
  async send(cmd: SendCommand, idempotencyKey?: string): Promise<NotificationView> {
    const key = validateIdempotencyKey(idempotencyKey);
    const errors: string[] = [];
    const channels = validateChannels(cmd.channels, errors);
    if (!cmd.to.trim()) errors.push('to must not be empty');
    if (!cmd.template.trim()) errors.push('template must not be empty');
    if (cmd.data != null && !isDataObject(cmd.data)) errors.push('data must be a JSON object');
    if (errors.length) throw badInput(errors);
    const data = cmd.data ?? {};

    const template = await new TemplateService(this.em, this.tenant).get(cmd.template, cmd.templateVersion);
    checkTemplateChannels(template, channels, errors);
    if (!errors.length) errors.push(...missingData(template, requiredFields(template, channels), data, 'data'));
    if (!errors.length) {
      // the exact rendering the worker will do: anything strict mode still refuses is named now
      for (const channel of channels) {
        try {
          this.deps.renderer.render(template.id, template.content, channel, data);
        } catch (err) {
          errors.push(
            `data does not fit template "${template.name}" version ${template.version} (${channel}): ${describeRenderError(err)}`,
          );
        }
      }
    }
    if (errors.length) throw badInput(errors);

    const addressing = (await new RecipientService(this.em, this.tenant).resolve([cmd.to])).get(cmd.to);
    if (!addressing) throw notFound('Recipient', cmd.to);
    const item = buildNotification(cmd.to, addressing, data, channels, this.tenant.environment, this.deps.providers);

    const view = await inTransaction(this.deps.pool, async (client) => {
      if (key) {
        const claim = await claimIdempotencyKey(client, this.tenant, 'send', key, requestHash(cmd));
        if ('replay' in claim) return viewFromSnapshot(claim.replay);
      }
      await insertNotifications(client, this.tenant, template, [item], null);
      const [view] = await loadViews(client, [item.id]);
      await recordNotificationEvents(client, 'notification.dispatched', [view]);
      if (key) await storeIdempotentResponse(client, this.tenant, 'send', key, notificationSnapshot(view));
      return view;
    });
    this.deps.kick();
    return view;
  }

  /** The caller's notification with this id, or null. */
  find(id: string): Promise<NotificationView | null> {
    return isUuid(id) ? loadView(this.deps.pool, this.tenant, id) : Promise.resolve(null);
  }

  async get(id: string): Promise<NotificationView> {
    const view = await this.find(id);
    if (!view) throw notFound('Notification', id);
    return view;
  }

  /** The caller's notifications (to one address or recipient, in one status, of one batch), newest first; a batch's in recipient order. */
  list(filter: ListFilter, page: ConnectionArgs): Promise<Connection<NotificationView>> {
    if (filter.batchId && !isUuid(filter.batchId)) throw badInput('batchId must be a batch id');
    return listViews(this.deps.pool, this.tenant, filter, page);
  }
}
