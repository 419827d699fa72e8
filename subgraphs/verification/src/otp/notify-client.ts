import { randomUUID } from 'node:crypto';
import { AppError } from '../../../../platform/errors.js';
import { principalHeaders, requestDigest, type Principal } from '../../../../platform/auth/principal.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';

/** The header notify reads an idempotency key from (the gateway forwards the client's under the same name). */
const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** The notify channels a code goes out on (notify's GraphQL spelling). */
export type NotifyChannel = 'SMS' | 'EMAIL' | 'VOICE' | 'WHATSAPP';

export interface OtpMessage {
  tenant: Tenant;
  channel: NotifyChannel;
  /** E.164 number or email address */
  to: string;
  /** notify template name, created in the tenant on first use */
  template: string;
  /** what the template says, per channel (created with the template) */
  content: Record<string, Record<string, string | string[]>>;
  data: Record<string, unknown>;
  /** one notification per send, also when the call is repeated */
  idempotencyKey: string;
}

export interface OtpSender {
  /** The notification's id; UNAVAILABLE (503) when notify cannot take it. */
  send(message: OtpMessage): Promise<string>;
}

const SEND = `mutation OtpSend($input: SendNotificationInput!) {
  sendNotification(input: $input) { notification { id } userErrors { message code } }
}`;
const CREATE_TEMPLATE = `mutation OtpTemplate($input: CreateNotificationTemplateInput!) {
  createNotificationTemplate(input: $input) { notificationTemplate { id } userErrors { message code } }
}`;

interface GraphQLAnswer {
  data?: Record<
    string,
    {
      notification?: { id: string } | null;
      notificationTemplate?: { id: string } | null;
      userErrors: { message: string; code?: string }[];
    } | null
  >;
  errors?: { message: string; extensions?: { code?: string } }[];
}

const unavailable = (why: string) => new AppError('UNAVAILABLE', `The message could not be sent (${why}); try again shortly`);

/**
 * Sends codes through the notify service's own API, as the gateway would call it: a principal of
 * the same organization and environment, signed with the internal secret for this one request. So
 * every code has one delivery record in notify, with its sandbox, providers and retries; this
 * service imports none of notify's code.
 */
export class NotifyHttpSender implements OtpSender {
  constructor(
    private readonly opts: {
      /** notify's GraphQL URL, resolved when the first code is sent (notify may start after this service) */
      url: () => string | undefined;
      internalSecret: string;
      timeoutMs?: number;
    },
  ) {}

  async send(message: OtpMessage): Promise<string> {
    const input = { to: message.to, template: message.template, channels: [message.channel], data: message.data };
    let answer = await this.call(message.tenant, SEND, { input }, message.idempotencyKey);
    let result = answer.data?.sendNotification;
    if (!result?.notification && mentionsMissingTemplate(answer, result?.userErrors)) {
      // first code of this tenant: its template is created, then the send is made again
      const template = { name: message.template, channels: message.content };
      const created = await this.call(message.tenant, CREATE_TEMPLATE, { input: template });
      const made = created.data?.createNotificationTemplate;
      // a concurrent first send may have created it: a CONFLICT is as good
      if (!made?.notificationTemplate && !made?.userErrors.some((e) => e.code === 'CONFLICT'))
        throw unavailable(
          `notify refused the message template: ${[...(created.errors ?? []), ...(made?.userErrors ?? [])].map((e) => e.message).join('; ')}`,
        );
      answer = await this.call(message.tenant, SEND, { input }, message.idempotencyKey);
      result = answer.data?.sendNotification;
    }
    if (result?.notification) return result.notification.id;
    throw unavailable(
      `notify: ${[...(answer.errors ?? []), ...(result?.userErrors ?? [])].map((e) => e.message).join('; ') || 'no answer'}`,
    );
  }

  private async call(tenant: Tenant, query: string, variables: Record<string, unknown>, idempotencyKey?: string): Promise<GraphQLAnswer> {
    const url = this.opts.url();
    if (!url) throw unavailable('notify is not reachable from this instance (NOTIFY_URL)');
    const principal: Principal = {
      kind: 'client',
      organizationId: tenant.organizationId,
      clientId: null,
      service: 'notify',
      environment: tenant.environment as Principal['environment'],
      permissions: ['send', 'templates:write'],
    };
    const body = { query, variables };
    const headers = principalHeaders(principal, this.opts.internalSecret, { audience: 'notify', request: requestDigest(body) });
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'x-request-id': randomUUID(),
          ...(idempotencyKey && { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey }),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
      const text = await res.text();
      try {
        return JSON.parse(text) as GraphQLAnswer;
      } catch {
        throw unavailable(`notify answered HTTP ${res.status} without GraphQL`);
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw unavailable(`notify: ${(err as Error).message}`);
    }
  }
}

function mentionsMissingTemplate(answer: GraphQLAnswer, userErrors: { message: string; code?: string }[] = []): boolean {
  const all = [...(answer.errors ?? []).map((e) => ({ message: e.message, code: e.extensions?.code })), ...userErrors];
  return all.some((e) => e.code === 'NOT_FOUND' && /template/i.test(e.message));
}
