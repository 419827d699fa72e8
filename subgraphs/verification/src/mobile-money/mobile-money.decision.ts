import { compareNames, DEFAULT_THRESHOLD, type TokenMatchHow } from '../../../../screening/index.js';
import type { AccountLookup, AccountStatus } from './adapters/adapter.js';
import { operatorCapitals } from './mobile-money.providers.js';
import type { MobileMoneyTrigger } from './mobile-money.lifecycle.js';

/**
 * The name score from which the account holder is the expected person: the screening engine's
 * default (the same engine and scale AML screens with).
 */
export const NAME_MATCH_THRESHOLD = DEFAULT_THRESHOLD;

/** One part of the expected name and what it matched in the holder's name (the engine's token explanation). */
export interface NamePartMatch {
  /** The part of the expected name, normalised (lower case, no accents) */
  expected: string;
  /** The part of the holder's name it matched; null when none did */
  holder: string | null;
  how: TokenMatchHow;
  score: number;
}

export interface NameMatchExplanation {
  /** The comparison in one sentence, with the score and the threshold */
  summary: string;
  threshold: number;
  parts: NamePartMatch[];
}

export interface MobileMoneyDecision {
  trigger: Exclude<MobileMoneyTrigger, 'submitted' | 'interrupted' | 'retried'>;
  accountStatus: AccountStatus | null;
  /** In capitals, as operators print it */
  accountHolder: string | null;
  nameMatch: boolean | null;
  nameMatchScore: number | null;
  nameMatchExplanation: NameMatchExplanation | null;
  /** Why it is not VERIFIED; null when it is */
  failureReason: string | null;
}

const round2 = (x: number) => x.toFixed(2);

/**
 * Compares the expected name with the account holder's through the screening engine's pairwise
 * matcher (`compareNames`: normalisation, equivalents, transliterations, order, initials — the
 * engine AML uses), the expected name being the query so each of its parts is explained.
 */
export function matchHolderName(
  expectedName: string,
  accountHolder: string,
  threshold = NAME_MATCH_THRESHOLD,
): { nameMatch: boolean; nameMatchScore: number; explanation: NameMatchExplanation } {
  const { score, tokens } = compareNames(expectedName, accountHolder);
  const nameMatch = score >= threshold;
  const parts = tokens.map((t) => ({ expected: t.query, holder: t.matched, how: t.how, score: t.score }));
  const matched = parts
    .filter((p) => p.holder !== null)
    .map((p) => (p.how === 'exact' ? p.expected : `${p.expected} ~ ${p.holder} (${p.how})`));
  const missing = parts.filter((p) => p.holder === null).map((p) => p.expected);
  const summary =
    `The account holder ${accountHolder} ${nameMatch ? 'matches' : 'does not match'} the expected name ${expectedName.trim()}: ` +
    `score ${round2(score)} against a threshold of ${round2(threshold)}` +
    (matched.length ? `; matched: ${matched.join(', ')}` : '; no part of the names matched') +
    (missing.length && matched.length ? `; not in the holder's name: ${missing.join(', ')}` : '') +
    '.';
  return { nameMatch, nameMatchScore: score, explanation: { summary, threshold, parts } };
}

/**
 * The outcome of a lookup (the spec's states): an active account is VERIFIED when no name is
 * expected or the holder's name matches it, else NAME_MISMATCH; no account, or one that is not
 * active, is NOT_FOUND; an operator that could not answer — or gave no holder name to compare
 * with an expected one — is PROVIDER_ERROR (retry later).
 */
export function decideMobileMoney(
  lookup: AccountLookup | { outcome: 'error'; reason: string },
  expectedName: string | null | undefined,
  threshold = NAME_MATCH_THRESHOLD,
): MobileMoneyDecision {
  const none = { accountHolder: null, nameMatch: null, nameMatchScore: null, nameMatchExplanation: null } as const;
  if (lookup.outcome === 'error') {
    return { trigger: 'checked.provider_error', accountStatus: null, ...none, failureReason: lookup.reason };
  }
  if (lookup.outcome === 'not_found') {
    return { trigger: 'checked.not_found', accountStatus: lookup.accountStatus, ...none, failureReason: lookup.reason };
  }
  const accountHolder = lookup.holderName ? operatorCapitals(lookup.holderName) : null;
  const expected = expectedName?.trim() || null;
  if (!expected) {
    return { trigger: 'checked.verified', accountStatus: 'ACTIVE', ...none, accountHolder, failureReason: null };
  }
  if (!accountHolder) {
    return {
      trigger: 'checked.provider_error',
      accountStatus: 'ACTIVE',
      ...none,
      failureReason: 'The operator gave no account holder name to compare with expectedName',
    };
  }
  const { nameMatch, nameMatchScore, explanation } = matchHolderName(expected, accountHolder, threshold);
  return {
    trigger: nameMatch ? 'checked.verified' : 'checked.name_mismatch',
    accountStatus: 'ACTIVE',
    accountHolder,
    nameMatch,
    nameMatchScore,
    nameMatchExplanation: explanation,
    failureReason: nameMatch
      ? null
      : `The account holder's name does not match expectedName (score ${round2(nameMatchScore)} < ${round2(threshold)})`,
  };
}
