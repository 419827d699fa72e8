import { nationalNumberOf, operatorCapitals } from '../mobile-money.providers.js';
import { MobileMoneyProviderError, type AccountLookup, type LookupRequest, type MobileMoneyAdapter } from './adapter.js';

export const SANDBOX = 'sandbox';

/** The holder of the sandbox's `…0002` wallets: anyone else's expected name is a NAME_MISMATCH. */
export const SANDBOX_OTHER_HOLDER = 'AMA SERWAA BOATENG';
/** The holder of a sandbox wallet when the request names no expected name. */
export const SANDBOX_DEFAULT_HOLDER = 'SANDBOX ACCOUNT HOLDER';

/**
 * The sandbox's magic numbers: the last four digits of the national number decide what the
 * "operator" answers, for every provider and country (docs/api/mobile-money.md). Any other number is
 * an active wallet held by the expected name, in capitals.
 */
export const SANDBOX_MAGIC_ENDINGS = {
  '0001': 'no wallet on the number: NOT_FOUND',
  '0002': `an active wallet held by ${SANDBOX_OTHER_HOLDER}: NAME_MISMATCH (unless that is the expected name)`,
  '0003': 'the operator is unavailable (HTTP 503): PROVIDER_ERROR',
  '0004': 'the operator does not answer in time: PROVIDER_ERROR',
  '0005': 'a wallet that is not active: NOT_FOUND with accountStatus INACTIVE',
  '0006': 'an active wallet whose holder name the operator does not give: VERIFIED without expectedName, PROVIDER_ERROR with one',
} as const;

/** Deterministic, offline, instant: used by test keys, and by live keys for providers without a real adapter configured. */
export class SandboxMobileMoneyAdapter implements MobileMoneyAdapter {
  constructor(readonly name: string = SANDBOX) {}

  async lookup(account: LookupRequest): Promise<AccountLookup> {
    const ending = nationalNumberOf(account.phoneNumber).slice(-4);
    switch (ending) {
      case '0001':
        return {
          outcome: 'not_found',
          accountStatus: null,
          reason: `No ${account.provider} wallet is registered on ${account.phoneNumber}`,
        };
      case '0002':
        return { outcome: 'found', accountStatus: 'ACTIVE', holderName: SANDBOX_OTHER_HOLDER };
      case '0003':
        throw new MobileMoneyProviderError(`${account.provider} is unavailable (HTTP 503, sandbox)`);
      case '0004':
        throw new MobileMoneyProviderError(`${account.provider} did not answer in time (sandbox)`);
      case '0005':
        return {
          outcome: 'not_found',
          accountStatus: 'INACTIVE',
          reason: `The ${account.provider} wallet on ${account.phoneNumber} is not active`,
        };
      case '0006':
        return { outcome: 'found', accountStatus: 'ACTIVE', holderName: null };
      default:
        return {
          outcome: 'found',
          accountStatus: 'ACTIVE',
          holderName: account.expectedName?.trim() ? operatorCapitals(account.expectedName) : SANDBOX_DEFAULT_HOLDER,
        };
    }
  }
}
