import type { PushTarget } from './channel.js';
import { FCM, type FcmClient } from './push-fcm.provider.js';
import { WEBPUSH, type WebPushClient } from './push-webpush.provider.js';
import { ProviderError, permanentError, transientError, type Accepted, type ChannelProvider, type OutgoingMessage } from './provider.js';

/** `fcm`, `webpush` or `fcm+webpush`: the live push services this instance is configured with. */
export const pushProviderName = (fcm: boolean, webPush: boolean) => [fcm && FCM, webPush && WEBPUSH].filter(Boolean).join('+');

/**
 * The live push channel: every device of the recipient, FCM tokens through FCM HTTP v1 and Web Push
 * subscriptions through VAPID. One accepted device makes the channel `delivered` (failures of the
 * others are kept in `reason`); when none was accepted, a transient failure of any device means a
 * retry, otherwise the channel is `undeliverable`.
 */
export class PushProvider implements ChannelProvider {
  readonly name: string;
  readonly concurrency = 20;

  constructor(
    private readonly fcm: FcmClient | null,
    private readonly webPush: WebPushClient | null,
  ) {
    this.name = pushProviderName(!!fcm, !!webPush);
  }

  async send(message: OutgoingMessage): Promise<Accepted> {
    const targets = message.targets ?? [];
    if (!targets.length) throw permanentError('push: the recipient has no device');
    const { title = '', body = '' } = message.content;
    const outcomes = await Promise.all(
      targets.map((t) =>
        this.sendOne(t, { title, body }, message.notificationId).then(
          (id) => ({ id, error: null }),
          (error: unknown) => ({
            id: null,
            error: error instanceof ProviderError ? error : transientError(`push: ${(error as Error).message}`),
          }),
        ),
      ),
    );
    const accepted = outcomes.filter((o) => o.id !== null);
    const failures = outcomes.flatMap((o) => (o.error ? [o.error] : []));
    const summary = failures.map((f) => f.message).join('; ');
    if (accepted.length) {
      return {
        status: 'delivered',
        providerMessageId: accepted[0].id!,
        ...(failures.length ? { note: `${accepted.length}/${targets.length} devices; ${summary}` } : {}),
      };
    }
    throw failures.some((f) => !f.permanent) ? transientError(summary) : permanentError(summary);
  }

  private sendOne(target: PushTarget, notification: { title: string; body: string }, notificationId: string): Promise<string> {
    if (target.type === 'fcm') {
      if (!this.fcm) return Promise.reject(permanentError('push: FCM is not configured (FCM_SERVICE_ACCOUNT)'));
      return this.fcm.send(target.token, notification, { notification_id: notificationId });
    }
    if (!this.webPush) return Promise.reject(permanentError('push: Web Push is not configured (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY)'));
    return this.webPush.send(target.subscription, { ...notification, notification_id: notificationId });
  }
}
