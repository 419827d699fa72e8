import type { AccountToCheck } from '../mobile-money.providers.js';

/**
 * A number to look up. `expectedName` is the caller's: real adapters never send it to the
 * operator (they return the holder's name and the engine compares); the sandbox echoes it.
 */
export interface LookupRequest extends AccountToCheck {
  expectedName?: string | null;
}

/** What an operator says of a wallet's state (`accountStatus`). */
export const ACCOUNT_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/**
 * What an operator answered about a number. `found`: an active wallet, with the holder's name as
 * the operator gives it (null when it gives none). `not_found`: no wallet on the number
 * (`accountStatus` null), or one that is not active (`INACTIVE`).
 */
export type AccountLookup =
  | { outcome: 'found'; accountStatus: 'ACTIVE'; holderName: string | null }
  | { outcome: 'not_found'; accountStatus: AccountStatus | null; reason: string };

/**
 * The operator could not answer (unreachable, timed out, a 5xx, an answer that is not its
 * protocol, refused credentials): the verification is PROVIDER_ERROR, to retry later. The
 * message says what happened without any secret.
 */
export class MobileMoneyProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MobileMoneyProviderError';
  }
}

/**
 * One mobile money operator's account lookup (ARCHITECTURE.md principle 4): a sandbox, and
 * real protocols (MTN MoMo's Collection API). `lookup` resolves with the operator's answer or
 * throws MobileMoneyProviderError (any other error counts as one too); it gives up when `signal`
 * aborts.
 */
export interface MobileMoneyAdapter {
  /** Recorded on each verification (`adapter`): which implementation answered. */
  readonly name: string;
  lookup(account: LookupRequest, signal: AbortSignal): Promise<AccountLookup>;
}
