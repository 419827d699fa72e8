import { permanentError, transientError, type Accepted, type ChannelProvider, type OutgoingMessage } from './provider.js';

export const AFRICASTALKING_VOICE = 'africastalking-voice';

export interface AfricasTalkingVoiceOptions {
  /** https://voice.africastalking.com (live), https://voice.sandbox.africastalking.com, or a local fake */
  apiUrl: string;
  apiKey: string;
  username: string;
  /** The Africa's Talking virtual number the call comes from */
  from: string;
  timeoutMs?: number;
}

interface CallResponse {
  entries?: Array<{ phoneNumber?: string; status?: string; sessionId?: string | null }>;
  errorMessage?: string;
}

/** Entry statuses that say the number itself cannot be called. */
const PERMANENT_STATUSES = new Set(['InvalidPhoneNumber', 'DestinationNotSupported', 'UnsupportedNumberType']);

/**
 * Voice through Africa's Talking's voice API (`POST /call`, form-encoded `username`, `from`, `to`,
 * `clientRequestId`; `apiKey` header). The call is `sent` once queued; what is said is the answer to
 * Africa's Talking's voice callback (`sayXml` of the rendered text, looked up by `clientRequestId`).
 */
export class AfricasTalkingVoiceProvider implements ChannelProvider {
  readonly name = AFRICASTALKING_VOICE;
  readonly concurrency = 10;

  constructor(private readonly opts: AfricasTalkingVoiceOptions) {}

  async send(message: OutgoingMessage): Promise<Accepted> {
    const form = new URLSearchParams({
      username: this.opts.username,
      from: this.opts.from,
      to: message.to,
      clientRequestId: message.deliveryId,
    });
    let res: Response;
    let raw: string;
    try {
      res = await fetch(new URL('/call', this.opts.apiUrl), {
        method: 'POST',
        headers: { apiKey: this.opts.apiKey, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
      raw = await res.text();
    } catch (err) {
      throw transientError(`africastalking voice: ${(err as Error).message}`);
    }
    if (!res.ok) throw transientError(`africastalking voice: HTTP ${res.status} ${raw.slice(0, 200)}`);
    let body: CallResponse;
    try {
      body = JSON.parse(raw) as CallResponse;
    } catch {
      throw transientError(`africastalking voice: unreadable response ${raw.slice(0, 200)}`);
    }
    const entry = body.entries?.[0];
    if (!entry) throw transientError(`africastalking voice: no entry in response (${body.errorMessage ?? 'no message'})`);
    if (entry.status === 'Queued' && entry.sessionId) return { status: 'sent', providerMessageId: entry.sessionId };
    const reason = `africastalking voice: ${entry.status ?? 'unknown status'} (${body.errorMessage ?? 'None'})`;
    throw PERMANENT_STATUSES.has(entry.status ?? '') ? permanentError(reason) : transientError(reason);
  }
}

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/**
 * The answer to the voice callback: the text said twice, slowly (digits apart so a code is heard
 * one digit at a time).
 */
export function sayXml(text: string, voice = 'woman'): string {
  const spoken = escapeXml(text.replace(/(\d)(?=\d)/g, '$1 '));
  return `<?xml version="1.0" encoding="UTF-8"?><Response><Say voice="${voice}" playBeep="false">${spoken}</Say><Say voice="${voice}">${spoken}</Say></Response>`;
}
