import type pg from 'pg';
import type { Config } from '../../../../platform/config.js';
import type { Channel } from './channel.js';
import type { ChannelProvider } from './provider.js';
import { SANDBOX, SandboxProvider } from './sandbox.provider.js';
import { SmtpProvider } from './smtp.provider.js';
import { AfricasTalkingProvider } from './sms-africastalking.provider.js';
import { FcmClient, readServiceAccount } from './push-fcm.provider.js';
import { WebPushClient } from './push-webpush.provider.js';
import { PushProvider } from './push.provider.js';
import { WhatsAppCloudProvider } from './whatsapp-cloud.provider.js';
import { AfricasTalkingVoiceProvider } from './voice-africastalking.provider.js';
import { isE164 } from '../recipients/recipient.address.js';

/** The `provider` of a live channel that has no real provider configured: the sandbox, and it says so. */
export const fallbackName = (channel: Channel) => `${SANDBOX} (no live ${channel} provider configured)`;

/**
 * Every provider of this instance, by name. Test keys always get the sandbox; live keys get the
 * configured provider of the channel, or the sandbox (named `sandbox (no live … configured)`).
 * The name is chosen when a notification is accepted and stored with each channel; the worker
 * sends through the provider of that name.
 */
export class ChannelProviders {
  private readonly byName = new Map<string, ChannelProvider>();
  private readonly live: Record<Channel, ChannelProvider | null>;

  constructor(config: Config, pool: pg.Pool, ca?: string) {
    const sandbox = new SandboxProvider(pool);
    this.byName.set(SANDBOX, sandbox);
    this.live = {
      email: smtp(config, ca),
      sms: sms(config),
      push: push(config, ca),
      whatsapp: whatsapp(config),
      voice: voice(config),
    };
    for (const channel of Object.keys(this.live) as Channel[]) {
      const provider = this.live[channel];
      if (provider) this.byName.set(provider.name, provider);
      else this.byName.set(fallbackName(channel), sandbox);
    }
  }

  /** The provider name a new channel delivery is given. */
  nameFor(environment: string, channel: Channel): string {
    if (environment !== 'live') return SANDBOX;
    return this.live[channel]?.name ?? fallbackName(channel);
  }

  /** Null when this instance lacks the provider (configured elsewhere, or since removed). */
  get(name: string): ChannelProvider | null {
    return this.byName.get(name) ?? null;
  }

  async close(): Promise<void> {
    await Promise.all([...new Set(this.byName.values())].map((p) => p.close?.()));
  }
}

function smtp(config: Config, ca?: string): ChannelProvider | null {
  if (!config.SMTP_URL) return null;
  return new SmtpProvider({ url: config.SMTP_URL, from: config.EMAIL_FROM, poolSize: config.SMTP_POOL_SIZE, ca });
}

function sms(config: Config): ChannelProvider | null {
  if (!config.SMS_API_URL) return null;
  const missing = [!config.SMS_API_KEY && 'SMS_API_KEY', !config.SMS_USERNAME && 'SMS_USERNAME'].filter(Boolean);
  if (missing.length) throw new Error(`SMS_API_URL is set but ${missing.join(' and ')} is not`);
  return new AfricasTalkingProvider({
    apiUrl: config.SMS_API_URL,
    apiKey: config.SMS_API_KEY!,
    username: config.SMS_USERNAME!,
    senderId: config.SMS_SENDER_ID,
  });
}

function push(config: Config, ca?: string): ChannelProvider | null {
  const fcm = config.FCM_SERVICE_ACCOUNT ? new FcmClient(readServiceAccount(config.FCM_SERVICE_ACCOUNT), config.FCM_API_URL) : null;
  if (!!config.VAPID_PUBLIC_KEY !== !!config.VAPID_PRIVATE_KEY)
    throw new Error('Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY for Web Push');
  const webPush = config.VAPID_PUBLIC_KEY
    ? new WebPushClient({
        publicKey: config.VAPID_PUBLIC_KEY,
        privateKey: config.VAPID_PRIVATE_KEY!,
        subject: config.VAPID_SUBJECT,
        ca,
        allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      })
    : null;
  return fcm || webPush ? new PushProvider(fcm, webPush) : null;
}

function whatsapp(config: Config): ChannelProvider | null {
  if (!config.WHATSAPP_ACCESS_TOKEN) return null;
  if (!config.WHATSAPP_PHONE_NUMBER_ID) throw new Error('WHATSAPP_ACCESS_TOKEN is set but WHATSAPP_PHONE_NUMBER_ID is not');
  return new WhatsAppCloudProvider({
    apiUrl: config.WHATSAPP_API_URL,
    apiVersion: config.WHATSAPP_API_VERSION,
    phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID,
    accessToken: config.WHATSAPP_ACCESS_TOKEN,
    timeoutMs: config.NOTIFY_PROVIDER_TIMEOUT_MS,
  });
}

function voice(config: Config): ChannelProvider | null {
  if (!config.VOICE_API_KEY) return null;
  const missing = [!config.VOICE_USERNAME && 'VOICE_USERNAME', !config.VOICE_CALLER_NUMBER && 'VOICE_CALLER_NUMBER'].filter(Boolean);
  if (missing.length) throw new Error(`VOICE_API_KEY is set but ${missing.join(' and ')} is not`);
  if (!isE164(config.VOICE_CALLER_NUMBER!)) throw new Error('VOICE_CALLER_NUMBER must be an E.164 number');
  return new AfricasTalkingVoiceProvider({
    apiUrl: config.VOICE_API_URL,
    apiKey: config.VOICE_API_KEY,
    username: config.VOICE_USERNAME!,
    from: config.VOICE_CALLER_NUMBER!,
    timeoutMs: config.NOTIFY_PROVIDER_TIMEOUT_MS,
  });
}
