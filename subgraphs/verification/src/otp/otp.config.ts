import type { ServiceRuntime } from '../../../../platform/service-module.js';
import { NotifyHttpSender } from './notify-client.js';
import type { OtpDeps } from './otp.service.js';

/** The OTP settings of this process: policies from the configuration, codes sent through notify's own API. */
export function otpDeps(rt: ServiceRuntime): OtpDeps {
  const c = rt.config;
  const limits = {
    maxAttempts: c.OTP_MAX_ATTEMPTS,
    resendCoolDownSeconds: c.OTP_RESEND_COOLDOWN_SECONDS,
    perAddressPerHour: c.OTP_PER_ADDRESS_PER_HOUR,
    perOrganizationPerHour: c.OTP_PER_ORGANIZATION_PER_HOUR,
  };
  return {
    secret: rt.internalSecret,
    // notify in this process once it listens, else NOTIFY_URL
    sender: new NotifyHttpSender({ url: () => rt.serviceUrl('notify'), internalSecret: rt.internalSecret }),
    policy: { phone: { ttlSeconds: c.PHONE_OTP_SECONDS, ...limits }, email: { ttlSeconds: c.EMAIL_OTP_SECONDS, ...limits } },
    linkBaseUrl: c.MAGIC_LINK_BASE_URL.replace(/\/+$/, ''),
    whatsapp: { template: c.OTP_WHATSAPP_TEMPLATE, language: c.OTP_WHATSAPP_LANGUAGE },
    keyring: rt.keyring,
  };
}
