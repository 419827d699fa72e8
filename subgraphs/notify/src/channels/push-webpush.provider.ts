import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import webpush from 'web-push';
import { pinnedLookup, resolveTarget } from '../../../../platform/delivery/target.js';
import type { WebPushSubscription } from './channel.js';
import { ProviderError, permanentError, transientError } from './provider.js';

export const WEBPUSH = 'webpush';

export interface VapidOptions {
  publicKey: string;
  privateKey: string;
  /** `mailto:` or `https:` contact of the sender, required by push services. */
  subject: string;
  /** Extra CA (PEM) trusted for push services (local ones). */
  ca?: string;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: endpoints on private or loopback addresses (local use, tests). */
  allowPrivateTargets: boolean;
  timeoutMs?: number;
}

/**
 * Web Push with VAPID (`web-push`): the payload is encrypted for the subscription (aes128gcm) and
 * POSTed to its endpoint. 404/410 mean the subscription is gone (permanent); 429 and 5xx are retried.
 * A recipient's endpoint is any URL a tenant gave: it passes the webhooks' SSRF guard and the
 * request connects to the checked address; the push service's answer body is never kept.
 */
export class WebPushClient {
  constructor(private readonly opts: VapidOptions) {
    // fail at start, not at the first send, when the keys are malformed
    webpush.setVapidDetails(opts.subject, opts.publicKey, opts.privateKey);
  }

  async send(subscription: WebPushSubscription, payload: Record<string, unknown>): Promise<string> {
    const target = await resolveTarget(subscription.endpoint, this.opts.allowPrivateTargets, 'the endpoint').catch((err: Error) => {
      throw permanentError(`webpush: ${err.message}`);
    });
    const agent = new Agent({ lookup: pinnedLookup(target), ...(this.opts.ca ? { ca: [...rootCertificates, this.opts.ca] } : {}) });
    try {
      const res = await webpush.sendNotification(subscription, JSON.stringify(payload), {
        vapidDetails: { subject: this.opts.subject, publicKey: this.opts.publicKey, privateKey: this.opts.privateKey },
        TTL: 24 * 3600,
        timeout: this.opts.timeoutMs ?? 10_000,
        agent,
      });
      return res.headers.location ?? `webpush-${res.statusCode}`;
    } catch (err) {
      if (err instanceof ProviderError) throw err;
      const { statusCode, message } = err as { statusCode?: number; message: string };
      if (statusCode === undefined) throw transientError(`webpush: ${message}`);
      // the status only: the body is whatever the endpoint's server chose to say
      const reason = `webpush: HTTP ${statusCode}`;
      throw [400, 403, 404, 410, 413].includes(statusCode) ? permanentError(reason) : transientError(reason);
    }
  }
}
