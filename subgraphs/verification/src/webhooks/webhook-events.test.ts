import { loadServiceModules } from '../../../../cli/services.js';
import { EVENTS as REST_EVENTS } from '../../../../rest-adapter/routes/webhooks.js';
import { WEBHOOK_DELIVERY_EVENT_DESCRIPTIONS } from './webhook-delivery.events.js';
import { WEBHOOK_EVENTS, WebhookEventEnum } from './webhook-events.js';

describe('webhook events', () => {
  it('the graph’s enum names every event a service offers webhooks, in the order the REST spec lists them', async () => {
    const offered = (await loadServiceModules()).flatMap((m) => m.webhookEvents);
    expect(WEBHOOK_EVENTS).toEqual(offered);
    expect(REST_EVENTS).toEqual(offered);
  });

  it('names each in SCREAMING_CASE, standing for its dotted name', () => {
    expect(WebhookEventEnum.IDENTITY_MANUAL_REVIEW).toBe('identity.manual_review');
    expect(WebhookEventEnum.MOBILE_MONEY_VERIFIED).toBe('mobile_money.verified');
    expect(Object.keys(WebhookEventEnum)).toHaveLength(WEBHOOK_EVENTS.length);
  });

  it('offers no delivery event to webhooks (a delivery about a delivery would never end)', () => {
    for (const event of Object.keys(WEBHOOK_DELIVERY_EVENT_DESCRIPTIONS)) expect(WEBHOOK_EVENTS).not.toContain(event);
  });
});
