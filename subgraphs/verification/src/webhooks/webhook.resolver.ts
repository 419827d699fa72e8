import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { envelopeOf, reviveDates } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { Delivery } from '../../../../platform/delivery/delivery.entity.js';
import type { VerificationContext } from '../verification.shared.js';
import { ApiClientType } from '../admin/api-client.type.js';
import { WebhookService } from './webhook.service.js';
import { WEBHOOK_DELIVERY_RESOURCE } from './webhook-delivery.events.js';
import { WEBHOOK_EVENTS } from './webhook-catalog.js';
import {
  ConfigureWebhookInput,
  ConfigureWebhookPayload,
  DeactivateWebhookInput,
  DeactivateWebhookPayload,
  RedeliverWebhookInput,
  RedeliverWebhookPayload,
  WebhookAttemptType,
  WebhookConnection,
  WebhookDeliveryConnection,
  WebhookDeliveryEvent,
  WebhookDeliveryFilter,
  WebhookDeliveryType,
  WebhookFilter,
  WebhookType,
} from './webhook.type.js';

type Ctx = VerificationContext;

const READ = { service: 'verification', permission: 'webhooks:read' } as const;

function service(ctx: Ctx, access: 'read' | 'write'): WebhookService {
  const tenant = authorize(ctx, 'verification', `webhooks:${access}`);
  return new WebhookService(ctx.em, tenant, {
    allowPrivateTargets: ctx.deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    events: WEBHOOK_EVENTS,
  });
}

/** Deliveries with their attempts, read in one query for a whole page. */
async function withAttempts(svc: WebhookService, deliveries: Delivery[]): Promise<WebhookDeliveryType[]> {
  const attempts = await svc.attemptsOf(deliveries.map((d) => d.id));
  return deliveries.map((d) => toDelivery(d, attempts.get(d.id) ?? []));
}

function toDelivery(d: Delivery, attempts?: WebhookAttemptType[]): WebhookDeliveryType {
  return { ...d, webhookId: d.webhookId!, eventId: d.eventId!, event: d.event as WebhookDeliveryType['event'], attempts };
}

/** Dates travel as ISO strings inside events; the GraphQL type wants Date objects. */
function fromSnapshot(s: Record<string, unknown>): WebhookDeliveryType {
  return reviveDates(s, ['nextAttemptAt', 'deliveredAt', 'createdAt']);
}

/** The events of `source` about deliveries of one webhook; stopping it stops `source` at once. */
function ofWebhook(source: AsyncIterableIterator<StreamedEvent>, webhookId: string): AsyncIterableIterator<StreamedEvent> {
  const iterator: AsyncIterableIterator<StreamedEvent> = {
    async next() {
      for (;;) {
        const result = await source.next();
        if (result.done || result.value.snapshot.webhookId === webhookId) return result;
      }
    },
    return: () => source.return?.() ?? Promise.resolve({ value: undefined, done: true }),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

@Resolver(() => WebhookType)
export class WebhookResolver {
  @Query(() => WebhookType, { nullable: true, description: 'One webhook (never its secret); null when there is none with this id' })
  webhook(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'read').find(id);
  }

  @Directive(LIST_SIZE)
  @Query(() => WebhookConnection, {
    description: 'The organization’s webhooks, newest first, or those of one API client (secrets are never listed)',
  })
  webhooks(
    @Arg('filter', () => WebhookFilter, { nullable: true, description: 'Which ones; all when absent' }) filter: WebhookFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return service(ctx, 'read').list(filter ?? {}, page);
  }

  @FieldResolver(() => ApiClientType, {
    nullable: true,
    description: 'The API client it belongs to; null when that client is not of this environment',
  })
  client(@Root() webhook: WebhookType, @Ctx() ctx: Ctx) {
    return service(ctx, 'read').findClient(webhook.clientId);
  }

  @Mutation(() => ConfigureWebhookPayload, {
    description: 'Configures a webhook: its events are POSTed, signed, to the callback URL; the signing secret is shown this once',
  })
  async configureWebhook(
    @Arg('input', { description: 'Where to POST which events, for which API client' }) input: ConfigureWebhookInput,
    @Ctx() ctx: Ctx,
  ) {
    const webhook = await service(ctx, 'write').configure(input);
    return { webhook, secret: webhook.secret };
  }

  @Mutation(() => DeactivateWebhookPayload, {
    description: 'Deactivates a webhook: it receives nothing more, pending deliveries fail, its history stays readable',
  })
  async deactivateWebhook(@Arg('input', { description: 'The webhook to deactivate' }) input: DeactivateWebhookInput, @Ctx() ctx: Ctx) {
    return { webhook: await service(ctx, 'write').deactivate(input.id) };
  }
}

@Resolver(() => WebhookDeliveryType)
export class WebhookDeliveryResolver {
  @Query(() => WebhookDeliveryType, { nullable: true, description: 'One webhook delivery; null when there is none with this id' })
  webhookDelivery(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    return service(ctx, 'read')
      .findDelivery(id)
      .then((d) => d && toDelivery(d));
  }

  @Directive(LIST_SIZE)
  @Query(() => WebhookDeliveryConnection, {
    description: 'The organization’s webhook deliveries, newest first: of one webhook, or in one status (FAILED: what did not arrive)',
  })
  async webhookDeliveries(
    @Arg('filter', () => WebhookDeliveryFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: WebhookDeliveryFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    const svc = service(ctx, 'read');
    const connection = await svc.deliveries(filter ?? {}, page);
    const nodes = await withAttempts(svc, connection.nodes);
    return { ...connection, nodes, edges: connection.edges.map((edge, i) => ({ ...edge, node: nodes[i] })) };
  }

  @FieldResolver(() => WebhookType, { nullable: true, description: 'The webhook it is sent to' })
  webhook(@Root() delivery: WebhookDeliveryType, @Ctx() ctx: Ctx) {
    return service(ctx, 'read').find(delivery.webhookId);
  }

  @FieldResolver(() => [WebhookAttemptType], { description: 'Every attempt so far, first to last' })
  async attempts(@Root() delivery: WebhookDeliveryType, @Ctx() ctx: Ctx) {
    return delivery.attempts ?? (await service(ctx, 'read').attemptsOf([delivery.id])).get(delivery.id) ?? [];
  }

  @Mutation(() => RedeliverWebhookPayload, {
    description: 'Attempts a delivery again now, whatever its status (to resend it, or after FAILED); its webhook must be active',
  })
  async redeliverWebhook(@Arg('input', { description: 'The delivery to attempt again' }) input: RedeliverWebhookInput, @Ctx() ctx: Ctx) {
    const svc = service(ctx, 'write');
    const delivery = await svc.redeliver(input.deliveryId);
    ctx.deps.deliveries.wake();
    return { webhookDelivery: (await withAttempts(svc, [delivery]))[0] };
  }

  @Subscription(() => WebhookDeliveryEvent, {
    description:
      'Every change of one webhook delivery’s status (an attempt failed and another is scheduled, delivered, failed, redelivered)',
    subscribe: ({ args, context }) =>
      tenantEvents(context as Ctx, READ, WEBHOOK_DELIVERY_RESOURCE, { resourceId: (args as { id: string }).id }),
  })
  webhookDeliveryUpdated(@Root() event: StreamedEvent, @Arg('id', () => ID, { description: 'The delivery to follow' }) _id: string) {
    return envelopeOf(event, fromSnapshot);
  }

  @Subscription(() => WebhookDeliveryEvent, {
    description: 'Every new delivery of one webhook and every change of their status, present and future',
    subscribe: ({ args, context }) =>
      ofWebhook(tenantEvents(context as Ctx, READ, WEBHOOK_DELIVERY_RESOURCE), (args as { webhookId: string }).webhookId),
  })
  webhookDeliveryUpdatedForWebhook(
    @Root() event: StreamedEvent,
    @Arg('webhookId', () => ID, { description: 'The webhook whose deliveries to follow' }) _webhookId: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }
}
