import type { Principal } from './principal.js';

/**
 * The tenant a caller acts for: rows of other organizations or environments do not exist for it.
 * A session also carries its user: spread last into a filter, it keeps the session to that user's
 * rows (only scopes whose records carry a userId are granted to sessions).
 */
export interface Tenant {
  organizationId: string;
  environment: string;
  userId?: string;
}

/** The columns every tenant row carries (a session's user is a filter, not a column). */
export const tenantColumns = (t: Tenant): { organizationId: string; environment: string } => ({
  organizationId: t.organizationId,
  environment: t.environment,
});

export const tenantKey = (t: Tenant): string => `${t.organizationId}/${t.environment}`;

/** The tenant of an API key's or a session's principal; none for the admin secret (it belongs to no organization). */
export function tenantOf(principal: Principal | null): Tenant | null {
  if (!principal || principal.kind === 'admin' || !principal.organizationId) return null;
  const tenant = { organizationId: principal.organizationId, environment: principal.environment };
  return principal.kind === 'session' && principal.userId ? { ...tenant, userId: principal.userId } : tenant;
}
