import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { PageArgs } from '../../../../platform/graphql/pagination.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { VerificationDeps } from '../deps.js';
import { SECRET_SHOWN_ONCE, WebhookService } from './webhook.service.js';
import {
  ConfigureWebhookInput,
  CreatedWebhook,
  DeletedWebhook,
  WebhookDeliveryPage,
  WebhookDeliveryType,
  WebhookType,
} from './webhook.type.js';
import type { Delivery } from '../../../../platform/delivery/delivery.entity.js';

type Ctx = SubgraphContext<VerificationDeps>;

function service(ctx: Ctx, access: 'read' | 'write'): WebhookService {
  const tenant = authorize(ctx, 'verification', `webhooks:${access}`);
  return new WebhookService(ctx.em, tenant, {
    allowPrivateTargets: ctx.deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    events: ctx.deps.webhookEvents,
  });
}

async function withAttempts(svc: WebhookService, deliveries: Delivery[]): Promise<WebhookDeliveryType[]> {
  const attempts = await svc.attemptsOf(deliveries.map((d) => d.id));
  return deliveries.map((d) => ({ ...d, webhookId: d.webhookId!, eventId: d.eventId!, attempts: attempts.get(d.id) ?? [] }));
}

@Resolver()
export class WebhookResolver {
  @Mutation(() => CreatedWebhook, { description: 'POST /webhooks/configure' })
  async configureWebhook(@Arg('input') input: ConfigureWebhookInput, @Ctx() ctx: Ctx): Promise<CreatedWebhook> {
    const webhook = await service(ctx, 'write').configure(input);
    return { ...webhook, secret: webhook.secret, message: SECRET_SHOWN_ONCE };
  }

  @Query(() => [WebhookType], { description: 'GET /webhooks/client/{clientId} (secrets are never listed)' })
  webhooksByClient(@Arg('clientId') clientId: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'read').listByClient(clientId);
  }

  @Mutation(() => DeletedWebhook, { description: 'DELETE /webhooks/{id}: deactivates the webhook' })
  async deleteWebhook(@Arg('id', () => ID) id: string, @Ctx() ctx: Ctx): Promise<DeletedWebhook> {
    const w = await service(ctx, 'write').deactivate(id);
    return { id: w.id, active: w.active, message: `Webhook deactivated: ${w.id}` };
  }

  @Query(() => WebhookDeliveryPage, { description: 'Deliveries of a webhook, newest first, with every attempt' })
  async webhookDeliveries(@Arg('webhookId', () => ID) webhookId: string, @Args() { page, limit }: PageArgs, @Ctx() ctx: Ctx) {
    const svc = service(ctx, 'read');
    const result = await svc.deliveries(webhookId, page, limit);
    return { ...result, data: await withAttempts(svc, result.data) };
  }

  @Mutation(() => WebhookDeliveryType, { description: 'Attempt a delivery again now (after FAILED, or to resend)' })
  async redeliverWebhook(@Arg('deliveryId', () => ID) deliveryId: string, @Ctx() ctx: Ctx) {
    const svc = service(ctx, 'write');
    const delivery = await svc.redeliver(deliveryId);
    ctx.deps.deliveries.wake();
    return (await withAttempts(svc, [delivery]))[0];
  }
}
