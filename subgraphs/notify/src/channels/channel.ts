/** The channels a notification can go out on, in the spec's spelling. */
export const CHANNELS = ['email', 'sms', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];

export const isChannel = (value: string): value is Channel => (CHANNELS as readonly string[]).includes(value);

/** A Web Push subscription as browsers hand it out (`PushSubscription.toJSON()`). */
export interface WebPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** Where a push goes: an FCM registration token or a Web Push subscription. */
export type PushTarget = { type: 'fcm'; token: string } | { type: 'webpush'; subscription: WebPushSubscription };

/** Rendered content of one channel (email: subject + html; sms: body; push: title + body). */
export interface RenderedContent {
  subject?: string;
  html?: string;
  title?: string;
  body?: string;
}
