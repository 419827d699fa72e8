import type { EntityManager } from '@mikro-orm/postgresql';
import { findOneBy } from '../../../../platform/db/find-one-by.js';
import { ApiClient } from '../../../../platform/auth/api-client.entity.js';
import { conflict, invalid, notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { isUuid } from '../../../../platform/ids.js';
import { tenantColumns, type Tenant } from '../../../../platform/auth/tenant.js';
import { Delivery, DeliveryAttempt, Webhook } from '../../../../platform/delivery/delivery.entity.js';
import type { DeliveryStatus } from '../../../../platform/delivery/delivery.lifecycle.js';
import { redeliver } from '../../../../platform/delivery/delivery.worker.js';
import { generateWebhookSecret } from '../../../../platform/delivery/signature.js';
import { resolveTarget } from '../../../../platform/delivery/target.js';
import { sqlOf } from '../../../../platform/db/transaction.js';

export interface ConfigureCommand {
  clientId: string;
  callbackUrl: string;
  events: string[];
}

export class WebhookService {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly opts: { allowPrivateTargets: boolean; events: readonly string[] },
  ) {}

  async configure(cmd: ConfigureCommand): Promise<Webhook> {
    const errors: string[] = [];
    let url: URL | null = null;
    try {
      url = new URL(cmd.callbackUrl);
    } catch {
      errors.push('callbackUrl must be a valid URL');
    }
    if (url && url.protocol !== 'https:') errors.push('callbackUrl must be an HTTPS URL');
    if (!cmd.events.length) errors.push('events must contain at least one event');
    const unknown = cmd.events.filter((e) => !this.opts.events.includes(e));
    if (unknown.length) errors.push(`events must be among: ${this.opts.events.join(', ')} (unknown: ${unknown.join(', ')})`);
    if (!isUuid(cmd.clientId)) errors.push('clientId must be the id of an API client of your organization');
    if (url && !errors.length) {
      await resolveTarget(url.href, this.opts.allowPrivateTargets).catch((err: Error) => errors.push(err.message));
    }
    if (errors.length) throw invalid(errors);
    // another tenant's client (another organization, or this one's other environment) does not exist here
    const { organizationId, environment } = this.tenant;
    const client = await this.em.findOne(ApiClient, {
      id: cmd.clientId,
      organizationId,
      environment: environment as ApiClient['environment'],
    });
    if (!client) throw notFound('API client', cmd.clientId);

    const webhook = this.em.create(Webhook, {
      ...tenantColumns(this.tenant),
      clientId: cmd.clientId,
      callbackUrl: url!.href,
      events: [...new Set(cmd.events)],
      secret: generateWebhookSecret(),
    });
    await this.em.flush();
    return webhook;
  }

  /** The organization's webhooks (of one API client), newest first. */
  list(filter: { clientId?: string | null }, page: ConnectionArgs): Promise<Connection<Webhook>> {
    return paginate(this.em, Webhook, { ...this.tenant, ...(filter.clientId != null && { clientId: filter.clientId }) }, page);
  }

  /** The caller's webhook with this id, or null. */
  find(id: string): Promise<Webhook | null> {
    return isUuid(id) ? findOneBy(this.em, Webhook, { id, ...this.tenant }) : Promise.resolve(null);
  }

  async get(id: string): Promise<Webhook> {
    const w = await this.find(id);
    if (!w) throw notFound('Webhook', id);
    return w;
  }

  /** The caller's API client with this id (a webhook's owner), or null. */
  findClient(id: string): Promise<ApiClient | null> {
    const { organizationId, environment } = this.tenant;
    return isUuid(id)
      ? this.em.findOne(ApiClient, { id, organizationId, environment: environment as ApiClient['environment'] })
      : Promise.resolve(null);
  }

  /** DELETE deactivates: deliveries stop, history stays queryable. */
  async deactivate(id: string): Promise<Webhook> {
    const w = await this.get(id);
    if (w.active) {
      w.active = false;
      w.deactivatedAt = new Date();
      await this.em.flush();
    }
    return w;
  }

  /** The organization's webhook deliveries (of one webhook, in one status), newest first. */
  deliveries(filter: { webhookId?: string | null; status?: DeliveryStatus | null }, page: ConnectionArgs): Promise<Connection<Delivery>> {
    const { webhookId, status } = filter;
    // a webhook id that is no id names no webhook: nothing matches it (the column is a uuid)
    return paginate(
      this.em,
      Delivery,
      {
        ...this.tenant,
        webhookId: webhookId == null ? { $ne: null } : isUuid(webhookId) ? webhookId : { $in: [] },
        ...(status != null && { status }),
      },
      page,
    );
  }

  /** The caller's webhook delivery with this id (callbacks of other capabilities are not), or null. */
  findDelivery(id: string): Promise<Delivery | null> {
    return isUuid(id) ? this.em.findOne(Delivery, { id, webhookId: { $ne: null }, ...this.tenant }) : Promise.resolve(null);
  }

  /** The attempts of deliveries already read through this tenant, by delivery. */
  async attemptsOf(deliveryIds: string[]): Promise<Map<string, DeliveryAttempt[]>> {
    const attempts = await this.em.find(DeliveryAttempt, { deliveryId: { $in: deliveryIds } }, { orderBy: { number: 'asc' } });
    const byDelivery = new Map<string, DeliveryAttempt[]>(deliveryIds.map((id) => [id, []]));
    for (const a of attempts) byDelivery.get(a.deliveryId)?.push(a);
    return byDelivery;
  }

  /** Manual redelivery: the delivery becomes PENDING again and is attempted now. */
  async redeliver(deliveryId: string): Promise<Delivery> {
    const d = await this.findDelivery(deliveryId);
    if (!d) throw notFound('Webhook delivery', deliveryId);
    const webhook = await this.get(d.webhookId!);
    if (!webhook.active) throw conflict('The webhook is deactivated; configure a new one to receive its events');
    await redeliver(sqlOf(this.em), d.id);
    return this.em.findOneOrFail(Delivery, { id: d.id }, { refresh: true });
  }
}
