import type { FlowInfo, StepName } from './api';
import type { Locale } from './i18n';

/**
 * What the page keeps between reloads, in localStorage under the link's token (the link opens
 * once: a reload reuses the session it got). Cleared when the session ends (expiry); when the flow
 * is finished only the outcome stays, without the session token.
 */
export interface Progress {
  sessionToken: string;
  expiresAt: string;
  flow: FlowInfo;
  locale?: Locale;
  consented?: boolean;
  /** Steps the person has seen the outcome of and moved past (a failed one too, by choice). */
  acknowledged?: StepName[];
  /** The open liveness session: its token is shown only when it is created. */
  liveness?: { id: string; token: string };
  /** Checks started from this page and not final yet, by step (their id). */
  checks?: Partial<Record<StepName, string>>;
}

export interface Finished {
  finished: { flowId: string; outcome: Outcome; redirectUrl?: string | null; organizationName: string };
}

export type Outcome = 'VERIFIED' | 'REJECTED' | 'PENDING';

const key = (linkToken: string) => `verification-flow:${linkToken}`;

export function readProgress(linkToken: string): Progress | Finished | null {
  try {
    const saved = JSON.parse(localStorage.getItem(key(linkToken)) ?? 'null') as Progress | Finished | null;
    if (saved && 'sessionToken' in saved && Date.parse(saved.expiresAt) <= Date.now()) {
      localStorage.removeItem(key(linkToken));
      return null;
    }
    return saved;
  } catch {
    return null;
  }
}

export function saveProgress(linkToken: string, progress: Progress | Finished): void {
  try {
    localStorage.setItem(key(linkToken), JSON.stringify(progress));
  } catch {
    // storage full or refused (private mode): the flow goes on, a reload will not resume it
  }
}

export function clearProgress(linkToken: string): void {
  try {
    localStorage.removeItem(key(linkToken));
  } catch {
    // nothing kept
  }
}
