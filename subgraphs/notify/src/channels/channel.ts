/**
 * The channels a notification can go out on: the spec's (email, sms, push), then WhatsApp and voice
 * calls (GraphQL and internal callers only: the REST routes keep the spec's list).
 */
export const CHANNELS = ['email', 'sms', 'push', 'whatsapp', 'voice'] as const;
export type Channel = (typeof CHANNELS)[number];

export const isChannel = (value: string): value is Channel => (CHANNELS as readonly string[]).includes(value);

/** Channels addressed to an E.164 phone number. */
export const PHONE_CHANNELS: readonly Channel[] = ['sms', 'whatsapp', 'voice'];

/** A Web Push subscription as browsers hand it out (`PushSubscription.toJSON()`). */
export interface WebPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** Where a push goes: an FCM registration token or a Web Push subscription. */
export type PushTarget = { type: 'fcm'; token: string } | { type: 'webpush'; subscription: WebPushSubscription };

/**
 * Rendered content of one channel (email: subject + html; sms: body; push: title + body;
 * whatsapp: template + language + parameters; voice: text).
 */
export interface RenderedContent {
  subject?: string;
  html?: string;
  title?: string;
  body?: string;
  template?: string;
  language?: string;
  parameters?: string[];
  text?: string;
}

/** SQL ordering rows by the channel in `column`, in the order of CHANNELS. */
export const channelOrderSql = (column: string): string => `array_position(array[${CHANNELS.map((c) => `'${c}'`).join(', ')}], ${column})`;
