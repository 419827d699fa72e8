import { permanentError, transientError, type Accepted, type ChannelProvider, type OutgoingMessage } from './provider.js';

export const WHATSAPP_CLOUD = 'whatsapp-cloud';

export interface WhatsAppCloudOptions {
  /** https://graph.facebook.com (live) or a local fake */
  apiUrl: string;
  /** Graph API version, e.g. v21.0 */
  apiVersion: string;
  phoneNumberId: string;
  accessToken: string;
  timeoutMs?: number;
}

/** Graph API error codes that say the recipient cannot be reached on WhatsApp (never retried). */
const PERMANENT_CODES = new Set([131026, 131021, 131009, 132001, 100]);

interface GraphResponse {
  messages?: Array<{ id?: string }>;
  error?: { message?: string; code?: number };
}

/**
 * WhatsApp through the WhatsApp Business Cloud API: a template message
 * (`POST /<version>/<phone-number-id>/messages`, bearer token, `type: template`): the notify
 * template's whatsapp content names the approved template, its language and the rendered body
 * parameters (the code, for an authentication template). Accepted messages are `sent`.
 */
export class WhatsAppCloudProvider implements ChannelProvider {
  readonly name = WHATSAPP_CLOUD;
  readonly concurrency = 20;

  constructor(private readonly opts: WhatsAppCloudOptions) {}

  async send(message: OutgoingMessage): Promise<Accepted> {
    const { template = '', language = 'en', parameters = [] } = message.content;
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: message.to.replace(/^\+/, ''),
      type: 'template',
      template: {
        name: template,
        language: { code: language },
        components: parameters.length ? [{ type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) }] : [],
      },
    };
    const url = new URL(`/${this.opts.apiVersion}/${encodeURIComponent(this.opts.phoneNumberId)}/messages`, this.opts.apiUrl);
    let res: Response;
    let raw: string;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.opts.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
      raw = await res.text();
    } catch (err) {
      throw transientError(`whatsapp: ${(err as Error).message}`);
    }
    let parsed: GraphResponse | null = null;
    try {
      parsed = JSON.parse(raw) as GraphResponse;
    } catch {
      // a proxy's HTML page, a cut answer: below
    }
    if (!res.ok) {
      const reason = `whatsapp: HTTP ${res.status} ${parsed?.error?.message ?? raw.slice(0, 200)}`;
      const code = parsed?.error?.code;
      throw res.status < 500 && code !== undefined && PERMANENT_CODES.has(code) ? permanentError(reason) : transientError(reason);
    }
    const id = parsed?.messages?.[0]?.id;
    if (!id) throw transientError(`whatsapp: unreadable response ${raw.slice(0, 200)}`);
    return { status: 'sent', providerMessageId: id };
  }
}
