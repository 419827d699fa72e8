import type pg from 'pg';
import type { PushTarget } from './channel.js';
import { ProviderError, permanentError, transientError, type Accepted, type ChannelProvider, type OutgoingMessage } from './provider.js';
import { recordSandboxMessages } from './sandbox.store.js';

export const SANDBOX = 'sandbox';

/**
 * Documented magic values of the sandbox (docs/api/notify.md). Everything else is delivered.
 * - email, by local part: `bounce…@` undeliverable; `fail…@` fails every attempt (→ failed after
 *   the retries); `flaky…@` fails the first attempt, then is delivered.
 * - sms, whatsapp and voice, by the number's last four digits: `0001` undeliverable (invalid number); `0002` fails
 *   every attempt; `0003` fails the first attempt.
 * - push, by token (or Web Push endpoint) prefix: `unregistered` undeliverable; `fail` fails every
 *   attempt; `flaky` fails the first attempt.
 */
export function sandboxOutcome(message: OutgoingMessage): ProviderError | null {
  const { channel, attempt } = message;
  const kind = channel === 'email' ? emailKind(message.to) : channel === 'push' ? pushKind(message.targets ?? []) : phoneKind(message.to);
  if (kind === 'undeliverable') {
    const what =
      channel === 'email' ? 'mailbox does not exist' : channel === 'push' ? 'device token is not registered' : 'invalid phone number';
    return permanentError(`sandbox: ${what}`);
  }
  if (kind === 'fail' || (kind === 'flaky' && attempt === 1)) return transientError(`sandbox: temporary ${channel} provider failure`);
  return null;
}

function emailKind(address: string): string | null {
  const local = address.split('@')[0].toLowerCase();
  if (local.startsWith('bounce')) return 'undeliverable';
  if (local.startsWith('fail')) return 'fail';
  return local.startsWith('flaky') ? 'flaky' : null;
}

function phoneKind(phone: string): string | null {
  return ({ '0001': 'undeliverable', '0002': 'fail', '0003': 'flaky' } as Record<string, string>)[phone.slice(-4)] ?? null;
}

function pushKind(targets: PushTarget[]): string | null {
  const names = targets.map((t) => (t.type === 'fcm' ? t.token : (t.subscription.endpoint.split('/').pop() ?? '')).toLowerCase());
  if (names.length && names.every((n) => n.startsWith('unregistered'))) return 'undeliverable';
  if (names.some((n) => n.startsWith('fail'))) return 'fail';
  return names.some((n) => n.startsWith('flaky')) ? 'flaky' : null;
}

/**
 * The sandbox provider of every channel: nothing leaves the machine; every accepted message is
 * recorded in `notify.sandbox_messages` (GraphQL `sandboxMessages`, REST `GET /v1/sandbox/messages`).
 */
export class SandboxProvider implements ChannelProvider {
  readonly name = SANDBOX;

  constructor(private readonly pool: pg.Pool) {}

  async send(message: OutgoingMessage): Promise<Accepted> {
    const [result] = await this.sendMany([message]);
    if (result instanceof ProviderError) throw result;
    return result;
  }

  async sendMany(messages: OutgoingMessage[]): Promise<Array<Accepted | ProviderError>> {
    const results = messages.map(
      (m) => sandboxOutcome(m) ?? ({ status: 'delivered', providerMessageId: `sandbox-${m.deliveryId}-${m.attempt}` } as Accepted),
    );
    const accepted = messages.filter((_, i) => !(results[i] instanceof ProviderError));
    if (accepted.length) {
      await recordSandboxMessages(this.pool, accepted);
    }
    return results;
  }
}
