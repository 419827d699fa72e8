import { permanentError, transientError, type Accepted, type ChannelProvider, type OutgoingMessage } from './provider.js';

export const AFRICASTALKING = 'africastalking';

export interface AfricasTalkingOptions {
  /** Base URL: https://api.africastalking.com (live), https://api.sandbox.africastalking.com, or a local fake. */
  apiUrl: string;
  apiKey: string;
  username: string;
  /** Registered sender id or short code (`from`); the account default when absent. */
  senderId?: string;
  timeoutMs?: number;
}

/** Per-recipient `statusCode`s of the messaging API that say the number itself cannot be reached. */
const PERMANENT_CODES: Record<number, string> = {
  403: 'InvalidPhoneNumber',
  404: 'UnsupportedNumberType',
  406: 'UserInBlacklist',
  407: 'CouldNotRoute',
  409: 'DoNotDisturbRejection',
};
/** 100 Processed, 101 Sent, 102 Queued: the provider took the message. */
const ACCEPTED_CODES = new Set([100, 101, 102]);

interface MessagingResponse {
  SMSMessageData?: {
    Message?: string;
    Recipients?: Array<{ statusCode: number; number: string; status: string; cost?: string; messageId?: string }>;
  };
}

/**
 * SMS over Africa's Talking's HTTP messaging API (`POST /version1/messaging`, form-encoded,
 * `apiKey` header). Accepted messages are `sent`; the delivery report callback
 * (`POST /callbacks/sms/africastalking`, notifications/tracking.routes.ts) makes them `delivered` or `failed`.
 */
export class AfricasTalkingProvider implements ChannelProvider {
  readonly name = AFRICASTALKING;
  readonly concurrency = 20;

  constructor(private readonly opts: AfricasTalkingOptions) {}

  async send(message: OutgoingMessage): Promise<Accepted> {
    const form = new URLSearchParams({ username: this.opts.username, to: message.to, message: message.content.body ?? '' });
    if (this.opts.senderId) form.set('from', this.opts.senderId);
    let res: Response;
    let text: string;
    try {
      res = await fetch(new URL('/version1/messaging', this.opts.apiUrl), {
        method: 'POST',
        headers: { apiKey: this.opts.apiKey, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
      text = await res.text();
    } catch (err) {
      throw transientError(`africastalking: ${(err as Error).message}`);
    }
    if (!res.ok) throw transientError(`africastalking: HTTP ${res.status} ${text.slice(0, 200)}`);
    let body: MessagingResponse;
    try {
      body = JSON.parse(text) as MessagingResponse;
    } catch {
      throw transientError(`africastalking: unreadable response ${text.slice(0, 200)}`);
    }
    const recipient = body.SMSMessageData?.Recipients?.[0];
    if (!recipient) throw transientError(`africastalking: no recipient in response (${body.SMSMessageData?.Message ?? 'no message'})`);
    if (ACCEPTED_CODES.has(recipient.statusCode) && recipient.messageId) {
      return { status: 'sent', providerMessageId: recipient.messageId };
    }
    const reason = `africastalking: ${recipient.status} (${recipient.statusCode})`;
    throw PERMANENT_CODES[recipient.statusCode] ? permanentError(reason) : transientError(reason);
  }
}

/** Delivery report `status` values → the channel's outcome; others (Sent, Submitted, Buffered) change nothing. */
function deliveryReportOutcome(status: string): 'delivered' | 'failed' | null {
  if (status === 'Success') return 'delivered';
  if (['Failed', 'Rejected', 'AbsentSubscriber', 'Expired'].includes(status)) return 'failed';
  return null;
}

export interface DeliveryReport {
  providerMessageId: string;
  status: string;
  /** null: an intermediate status that changes nothing */
  outcome: 'delivered' | 'failed' | null;
  /** Why it failed, as the channel's reason */
  reason?: string;
}

/** An Africa's Talking delivery report (form fields `id`, `status`, `failureReason`…); null without `id` or `status`. */
export function parseDeliveryReport(body: Record<string, unknown>): DeliveryReport | null {
  const { id, status, failureReason } = body as Record<string, string | undefined>;
  if (!id || !status) return null;
  const outcome = deliveryReportOutcome(status);
  const reason = outcome === 'failed' ? `delivery report: ${status}${failureReason ? ` (${failureReason})` : ''}` : undefined;
  return { providerMessageId: id, status, outcome, reason };
}
