import type { Agent } from 'node:https';
import webpush from 'web-push';
import type { WebPushSubscription } from './channel.js';
import { permanentError, transientError } from './provider.js';

export const WEBPUSH = 'webpush';

export interface VapidOptions {
  publicKey: string;
  privateKey: string;
  /** `mailto:` or `https:` contact of the sender, required by push services. */
  subject: string;
  /** HTTPS agent for push services (extra CA for local ones). */
  agent?: Agent;
  timeoutMs?: number;
}

/**
 * Web Push with VAPID (`web-push`): the payload is encrypted for the subscription (aes128gcm) and
 * POSTed to its endpoint. 404/410 mean the subscription is gone (permanent); 429 and 5xx are retried.
 */
export class WebPushClient {
  constructor(private readonly opts: VapidOptions) {
    // fail at start, not at the first send, when the keys are malformed
    webpush.setVapidDetails(opts.subject, opts.publicKey, opts.privateKey);
  }

  async send(subscription: WebPushSubscription, payload: Record<string, unknown>): Promise<string> {
    try {
      const res = await webpush.sendNotification(subscription, JSON.stringify(payload), {
        vapidDetails: { subject: this.opts.subject, publicKey: this.opts.publicKey, privateKey: this.opts.privateKey },
        TTL: 24 * 3600,
        timeout: this.opts.timeoutMs ?? 10_000,
        ...(this.opts.agent ? { agent: this.opts.agent } : {}),
      });
      return res.headers.location ?? `webpush-${res.statusCode}`;
    } catch (err) {
      const { statusCode, body, message } = err as { statusCode?: number; body?: string; message: string };
      if (statusCode === undefined) throw transientError(`webpush: ${message}`);
      const reason = `webpush: HTTP ${statusCode}${body ? ` ${String(body).slice(0, 200)}` : ''}`;
      throw [400, 403, 404, 410, 413].includes(statusCode) ? permanentError(reason) : transientError(reason);
    }
  }
}
