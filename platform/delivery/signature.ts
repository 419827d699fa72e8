import { createHmac, randomBytes } from 'node:crypto';

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** `X-Webhook-Signature`: lowercase hex HMAC-SHA256 of the raw body, keyed with the whole secret. */
export function legacySignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Standard Webhooks headers: `webhook-signature` = `v1,` + base64 HMAC-SHA256 of
 * `${id}.${timestamp}.${body}` keyed with the base64-decoded part of the secret after `whsec_`.
 */
export function signedHeaders(secret: string, messageId: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000).toString();
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const standard = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return {
    'X-Webhook-Signature': legacySignature(secret, body),
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${standard}`,
  };
}
