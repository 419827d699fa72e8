import { Organization } from './auth/organization.entity.js';
import { ApiClient } from './auth/api-client.entity.js';
import { OutboxEvent } from './events/outbox-event.entity.js';
import { Delivery, DeliveryAttempt, Webhook } from './delivery/delivery.entity.js';

/** The platform's tables a service reaches through its EntityManager (`openOrm({ entities })`). */
export const PLATFORM_ENTITIES = [Organization, ApiClient, OutboxEvent, Webhook, Delivery, DeliveryAttempt];
