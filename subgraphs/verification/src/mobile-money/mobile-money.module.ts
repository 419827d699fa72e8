import type { VerificationCapability } from '../verification.shared.js';
import { MobileMoneyAdapters } from './adapters/registry.js';
import { MobileMoneyVerification } from './mobile-money.entity.js';
import { MobileMoneyResolver, MobileMoneyUserFields, resolveMobileMoneyReference } from './mobile-money.resolver.js';
import { MobileMoneyService } from './mobile-money.service.js';
import { mobileMoneySweep } from './mobile-money.worker.js';

/** Mobile money account verification through the operators (sandbox, MTN MoMo). */
export const mobileMoneyCapability: VerificationCapability<{ mobileMoney: MobileMoneyAdapters }> = {
  name: 'mobile-money',
  resolvers: [MobileMoneyResolver, MobileMoneyUserFields],
  references: { MobileMoneyVerification: resolveMobileMoneyReference },
  entities: [MobileMoneyVerification],
  webhookEvents: ['mobile_money.verified', 'mobile_money.failed'],
  deps: (shared) => ({ mobileMoney: MobileMoneyAdapters.fromConfig(shared.config) }),
  personalData: (em, tenant, deps) => ({
    mobileMoneyVerifications: new MobileMoneyService(em, tenant, {
      adapters: deps.mobileMoney,
      timeoutMs: deps.config.MOBILE_MONEY_TIMEOUT_MS,
      logger: deps.logger,
    }),
  }),
  retention: async (deps) => ({ operatorAnswers: await MobileMoneyService.expireOperatorAnswers(deps.pool) }),
  workers: (deps) => [
    mobileMoneySweep({
      orm: deps.orm,
      logger: deps.logger.child({ component: 'mobile-money' }),
      sweepMs: deps.config.MOBILE_MONEY_SWEEP_MS,
      timeoutMs: deps.config.MOBILE_MONEY_TIMEOUT_MS,
    }),
  ],
};
