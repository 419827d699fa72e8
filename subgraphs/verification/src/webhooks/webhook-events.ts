import { registerEnumType } from 'type-graphql';
import { eventTypeOf } from '../../../../platform/graphql/event-envelope.js';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENTS, type WebhookEventName } from './webhook-catalog.js';

/** GraphQL name (IDENTITY_VERIFIED) → the event's own dotted name, which resolvers and services use. */
export const WebhookEventEnum = Object.fromEntries(WEBHOOK_EVENTS.map((event) => [eventTypeOf(event), event])) as Record<
  string,
  WebhookEventName
>;
registerEnumType(WebhookEventEnum, {
  name: 'WebhookEvent',
  description: 'An event a webhook receives (its receiver gets the dotted name: IDENTITY_MANUAL_REVIEW is `identity.manual_review`)',
  valuesConfig: Object.fromEntries(WEBHOOK_EVENTS.map((event) => [eventTypeOf(event), { description: WEBHOOK_EVENT_DESCRIPTIONS[event] }])),
});
