/**
 * The reviewer's credential (an API key with review permissions, or a session token) and name:
 * kept in this tab's sessionStorage only, gone when the tab closes; never in localStorage or a cookie.
 */
const KEY = 'review-console.credential';
const NAME = 'review-console.reviewer';

export interface Session {
  credential: string;
  reviewer: string;
}

export function readSession(): Session | null {
  const credential = sessionStorage.getItem(KEY);
  const reviewer = sessionStorage.getItem(NAME);
  return credential && reviewer ? { credential, reviewer } : null;
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(KEY, session.credential);
  sessionStorage.setItem(NAME, session.reviewer);
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY);
  sessionStorage.removeItem(NAME);
}
