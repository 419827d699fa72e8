import { loadServiceModules } from '../../../../cli/services.js';
import { WEBHOOK_DELIVERY_EVENT_DESCRIPTIONS } from './webhook-delivery.events.js';
import { WEBHOOK_EVENTS } from './webhook-catalog.js';
import { WebhookEventEnum } from './webhook-events.js';

describe('webhook events', () => {
  it('the table describes every event a service offers webhooks (each capability names its own), no other', async () => {
    const offered = (await loadServiceModules()).flatMap((m) => m.webhookEvents);
    expect(new Set(offered).size).toBe(offered.length);
    expect([...WEBHOOK_EVENTS].sort()).toEqual([...offered].sort());
  });

  it('names each in SCREAMING_CASE, standing for its dotted name, in the table’s order', () => {
    expect(WebhookEventEnum.IDENTITY_MANUAL_REVIEW).toBe('identity.manual_review');
    expect(WebhookEventEnum.MOBILE_MONEY_VERIFIED).toBe('mobile_money.verified');
    expect(Object.values(WebhookEventEnum)).toEqual(WEBHOOK_EVENTS);
  });

  it('offers no delivery event to webhooks (a delivery about a delivery would never end)', () => {
    for (const event of Object.keys(WEBHOOK_DELIVERY_EVENT_DESCRIPTIONS)) expect(WEBHOOK_EVENTS).not.toContain(event);
  });
});
