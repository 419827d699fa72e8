import { rootCertificates } from 'node:tls';
import nodemailer from 'nodemailer';
import { permanentError, transientError, type Accepted, type ChannelProvider, type OutgoingMessage } from './provider.js';

export const SMTP = 'smtp';

export interface SmtpOptions {
  /** `smtp://user:pass@host:587` or `smtps://…:465`. */
  url: string;
  from: string;
  /** Pooled connections kept open to the server. */
  poolSize: number;
  /** Extra CA (PEM) trusted for the server's TLS certificate. */
  ca?: string;
}

/**
 * Email over SMTP with nodemailer's pooled transport. The server's 250 for the recipient is the
 * final word we get (`delivered`); a 5xx is permanent (`undeliverable`), a 4xx or a connection
 * problem is retried.
 */
export class SmtpProvider implements ChannelProvider {
  readonly name = SMTP;
  readonly concurrency: number;
  private readonly transport;

  constructor(private readonly opts: SmtpOptions) {
    this.concurrency = opts.poolSize * 4;
    this.transport = nodemailer.createTransport({
      url: opts.url,
      pool: true,
      maxConnections: opts.poolSize,
      maxMessages: 1000,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      // an extra CA adds to the public ones (a `ca` option alone would replace them)
      ...(opts.ca ? { tls: { ca: [...rootCertificates, opts.ca] } } : {}),
    });
  }

  async send(message: OutgoingMessage): Promise<Accepted> {
    try {
      const info = await this.transport.sendMail({
        from: this.opts.from,
        to: message.to,
        subject: message.content.subject,
        html: message.content.html,
        headers: { 'X-Notification-Id': message.notificationId },
      });
      if (!info.accepted.length) throw Object.assign(new Error(`recipient rejected: ${info.response}`), { responseCode: 550 });
      return { status: 'delivered', providerMessageId: info.messageId };
    } catch (err) {
      const {
        code,
        responseCode,
        response,
        message: text,
      } = err as { code?: string; responseCode?: number; response?: string; message: string };
      const reason = `smtp: ${response ?? text}`;
      // a 5xx about the recipient or the message is final; a failed login is our configuration
      const permanent = responseCode !== undefined && responseCode >= 500 && responseCode < 600 && code !== 'EAUTH';
      throw permanent ? permanentError(reason) : transientError(reason);
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
