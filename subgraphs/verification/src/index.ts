import type pg from 'pg';
import type { SubgraphDefinition } from '../../../platform/graphql/subgraph.js';
import { statusResolver } from '../../../platform/graphql/service-status.js';
import { ApiClient } from '../../../platform/auth/api-client.entity.js';
import { Organization } from '../../../platform/auth/organization.entity.js';
import { OutboxEvent } from '../../../platform/events/outbox-event.entity.js';
import type { PgBoss } from '../../../platform/jobs.js';
import type { Logger } from '../../../platform/logger.js';
import type { Config } from '../../../platform/config.js';
import type { EventStream } from '../../../platform/events/event-stream.js';
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

/** Background work of the verification service: the outbox relay and webhook deliveries. */
export function createWebhookDispatcher(args: { pool: pg.Pool; boss: PgBoss; events: EventStream; logger: Logger; config: Config; ca?: string }) {
  return new WebhookDispatcher({
    pool: args.pool,
    boss: args.boss,
    events: args.events,
    logger: args.logger,
    timeoutMs: args.config.WEBHOOK_TIMEOUT_MS,
    retryDelays: args.config.WEBHOOK_RETRY_DELAYS,
    allowPrivateTargets: args.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    pollMs: args.config.OUTBOX_POLL_MS,
    ca: args.ca,
  });
}
