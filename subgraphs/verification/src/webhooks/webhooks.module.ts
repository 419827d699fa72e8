import type { VerificationCapability } from '../verification.shared.js';
import { WebhookDeliveryResolver, WebhookResolver } from './webhook.resolver.js';

/** Webhooks of every service's events, and their deliveries. */
export const webhooksCapability: VerificationCapability = {
  name: 'webhooks',
  resolvers: [WebhookResolver, WebhookDeliveryResolver],
  webhookEvents: ['verification.completed'],
};
