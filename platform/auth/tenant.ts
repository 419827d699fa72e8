import type { Principal } from './principal.js';

/** The tenant a caller acts for: rows of other organizations or environments do not exist for it. */
export interface Tenant {
  organizationId: string;
  environment: string;
}

export const tenantKey = (t: Tenant): string => `${t.organizationId}/${t.environment}`;

/** The tenant of an API key's principal; none for the admin secret (it belongs to no organization). */
export function tenantOf(principal: Principal | null): Tenant | null {
  if (principal?.kind !== 'client' || !principal.organizationId) return null;
  return { organizationId: principal.organizationId, environment: principal.environment };
}
