import type { Channel, PushTarget, RenderedContent } from './channel.js';

/** One message for one channel of one notification, rendered and addressed. */
export interface OutgoingMessage {
  deliveryId: string;
  notificationId: string;
  organizationId: string;
  environment: string;
  channel: Channel;
  /** 1 for the first attempt. */
  attempt: number;
  /** The email address or E.164 number; for push a description of the targets. */
  to: string;
  /** push only: every device of the recipient. */
  targets?: PushTarget[];
  content: RenderedContent;
}

/**
 * What a provider answered when it took the message: `delivered` when its answer is final (the
 * SMTP server accepted the recipient, the push service accepted the token), `sent` when a delivery
 * report may follow (SMS).
 */
export interface Accepted {
  status: 'sent' | 'delivered';
  providerMessageId?: string;
  /** A note kept as the channel's `reason`, e.g. push devices that were skipped. */
  note?: string;
}

/**
 * A provider's refusal. `permanent` ones (invalid number, unknown mailbox, unregistered token) are
 * never retried: the channel becomes `undeliverable`. The others are retried with backoff.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export const permanentError = (message: string) => new ProviderError(message, true);
export const transientError = (message: string) => new ProviderError(message, false);

/** A channel's provider (ARCHITECTURE.md principle 4): a sandbox and at least one real protocol. */
export interface ChannelProvider {
  readonly name: string;
  /** Resolves when the provider took the message; throws ProviderError (anything else counts as transient). */
  send(message: OutgoingMessage): Promise<Accepted>;
  /** Optional bulk form (the sandbox records a whole job in one INSERT). */
  sendMany?(messages: OutgoingMessage[]): Promise<Array<Accepted | ProviderError>>;
  /** How many `send` calls may run at once. */
  readonly concurrency?: number;
  close?(): Promise<void>;
}

/** Runs `fn` over `items` with at most `limit` in flight; results keep the order of `items`. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
