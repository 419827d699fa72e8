import type { SubgraphDefinition } from '../../../platform/graphql/subgraph.js';
import { statusResolver } from '../../../platform/graphql/service-status.js';
import { ApiClient } from '../../../platform/auth/api-client.entity.js';
import { Organization } from '../../../platform/auth/organization.entity.js';
import { OutboxEvent } from '../../../platform/events/outbox-event.entity.js';
import type { ServiceModule } from '../../../platform/service-module.js';
import type { VerificationDeps } from './deps.js';
import { IdentityVerification } from './identity/identity.entity.js';
import { IdentityResolver, resolveIdentityReference } from './identity/identity.resolver.js';
import { ApiClientResolver } from './admin/api-client.resolver.js';
import { WebhookResolver } from './webhooks/webhook.resolver.js';
import { Webhook, WebhookAttempt, WebhookDelivery } from './webhooks/webhook.entity.js';
import { WebhookDispatcher } from './webhooks/webhook.dispatcher.js';

export const verificationEntities = [Organization, ApiClient, OutboxEvent, IdentityVerification, Webhook, WebhookDelivery, WebhookAttempt];

export const verificationSubgraph: SubgraphDefinition<VerificationDeps> = {
  name: 'verification',
  resolvers: [statusResolver('verification'), ApiClientResolver, IdentityResolver, WebhookResolver],
  referenceResolvers: { IdentityVerification: resolveIdentityReference },
};

export const verificationService: ServiceModule<VerificationDeps> = {
  name: 'verification',
  definition: verificationSubgraph,
  entities: verificationEntities,
  async setup(rt) {
    // background work: the outbox relay and webhook deliveries
    const dispatcher = new WebhookDispatcher({
      pool: rt.pool,
      boss: await rt.jobs(),
      events: rt.events,
      logger: rt.logger,
      timeoutMs: rt.config.WEBHOOK_TIMEOUT_MS,
      retryDelays: rt.config.WEBHOOK_RETRY_DELAYS,
      allowPrivateTargets: rt.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      pollMs: rt.config.OUTBOX_POLL_MS,
      ca: rt.ca,
    });
    return {
      deps: { config: rt.config, events: rt.events, webhooks: dispatcher },
      start: () => dispatcher.start(),
      stop: () => dispatcher.stop(),
    };
  },
};
