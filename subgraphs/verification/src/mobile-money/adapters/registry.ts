import type { Config } from '../../../../../platform/config.js';
import type { MobileMoneyProvider } from '../mobile-money.providers.js';
import type { MobileMoneyAdapter } from './adapter.js';
import { MtnMomoAdapter } from './mtn-momo.adapter.js';
import { SANDBOX, SandboxMobileMoneyAdapter } from './sandbox.adapter.js';

/** The adapter of a live provider that has no real adapter configured: the sandbox, and it says so. */
export const fallbackName = (provider: MobileMoneyProvider) => `${SANDBOX} (no live ${provider} adapter configured)`;

/**
 * The adapters of this instance. Test keys always get the sandbox; live keys get the provider's
 * configured real adapter, or the sandbox (named `sandbox (no live … adapter configured)`, which
 * each verification records in `adapter`).
 */
export class MobileMoneyAdapters {
  private readonly sandbox = new SandboxMobileMoneyAdapter();
  private readonly fallbacks = new Map<MobileMoneyProvider, MobileMoneyAdapter>();

  constructor(private readonly live: Partial<Record<MobileMoneyProvider, MobileMoneyAdapter>>) {}

  /** Real adapters from the environment (MTN_MOMO_* for MTN MoMo); none configured: the sandbox for all. */
  static fromConfig(config: Config): MobileMoneyAdapters {
    return new MobileMoneyAdapters({ MTN_MOMO: mtnMomo(config) ?? undefined });
  }

  adapterFor(environment: string, provider: MobileMoneyProvider): MobileMoneyAdapter {
    if (environment !== 'live') return this.sandbox;
    const real = this.live[provider];
    if (real) return real;
    let fallback = this.fallbacks.get(provider);
    if (!fallback) this.fallbacks.set(provider, (fallback = new SandboxMobileMoneyAdapter(fallbackName(provider))));
    return fallback;
  }
}

function mtnMomo(config: Config): MtnMomoAdapter | null {
  if (!config.MTN_MOMO_BASE_URL) return null;
  const missing = (['MTN_MOMO_SUBSCRIPTION_KEY', 'MTN_MOMO_API_USER', 'MTN_MOMO_API_KEY'] as const).filter((name) => !config[name]);
  if (missing.length) throw new Error(`MTN_MOMO_BASE_URL is set but ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not`);
  return new MtnMomoAdapter({
    baseUrl: config.MTN_MOMO_BASE_URL,
    subscriptionKey: config.MTN_MOMO_SUBSCRIPTION_KEY!,
    apiUser: config.MTN_MOMO_API_USER!,
    apiKey: config.MTN_MOMO_API_KEY!,
    targetEnvironment: config.MTN_MOMO_TARGET_ENVIRONMENT,
    timeoutMs: config.MTN_MOMO_TIMEOUT_MS,
  });
}
