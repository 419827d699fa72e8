import { registerEnumType } from 'type-graphql';
import type { Channel } from './channel.js';

/** The channels in SCREAMING_CASE (GraphQL) over their stored spelling (`email`, `sms`, `push`, `whatsapp`, `voice`). */
export const NotificationChannelEnum = {
  EMAIL: 'email',
  SMS: 'sms',
  PUSH: 'push',
  WHATSAPP: 'whatsapp',
  VOICE: 'voice',
} as const satisfies Record<string, Channel>;
registerEnumType(NotificationChannelEnum, {
  name: 'NotificationChannel',
  description: 'A way a notification reaches its recipient',
  valuesConfig: {
    EMAIL: { description: 'An email to the recipient’s address' },
    SMS: { description: 'A text message to the recipient’s phone number' },
    PUSH: { description: 'A push notification to each of the recipient’s devices (FCM tokens and Web Push subscriptions)' },
    WHATSAPP: { description: 'An approved WhatsApp template message to the recipient’s phone number (WhatsApp Business Cloud API)' },
    VOICE: { description: 'A phone call to the recipient’s phone number that says the text (Africa’s Talking voice)' },
  },
});
