/** The tenant a caller acts for: rows of other organizations or environments do not exist for it. */
export interface Tenant {
  organizationId: string;
  environment: string;
}

export const tenantKey = (t: Tenant): string => `${t.organizationId}/${t.environment}`;
