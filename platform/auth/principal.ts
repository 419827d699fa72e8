import { createHmac, timingSafeEqual } from 'node:crypto';

export const SERVICES = ['verification', 'risk', 'notify'] as const;
export type ServiceName = (typeof SERVICES)[number];
export const ENVIRONMENTS = ['live', 'test'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/**
 * Who is calling, as verified by the gateway's edge authentication.
 * `admin` principals come from a valid `X-Admin-Secret`; they belong to no organization.
 */
export interface Principal {
  kind: 'client' | 'admin';
  organizationId: string | null;
  clientId: string | null;
  service: ServiceName | null;
  environment: Environment;
  permissions: string[];
}

export const PRINCIPAL_HEADER = 'x-principal';
export const PRINCIPAL_SIGNATURE_HEADER = 'x-principal-signature';

function sign(value: string, secret: string): string {
  return createHmac('sha256', secret).update(value).digest('hex');
}

/** Headers the gateway adds to every subgraph call (HTTP and graphql-ws connectionParams). */
export function principalHeaders(principal: Principal, internalSecret: string): Record<string, string> {
  const value = Buffer.from(JSON.stringify(principal)).toString('base64url');
  return { [PRINCIPAL_HEADER]: value, [PRINCIPAL_SIGNATURE_HEADER]: sign(value, internalSecret) };
}

/** Subgraphs trust only principals signed with the shared internal secret; anything else is null. */
export function readPrincipal(headers: Record<string, unknown> | undefined, internalSecret: string): Principal | null {
  const value = headers?.[PRINCIPAL_HEADER];
  const signature = headers?.[PRINCIPAL_SIGNATURE_HEADER];
  if (typeof value !== 'string' || typeof signature !== 'string') return null;
  const expected = Buffer.from(sign(value, internalSecret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    return JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Principal;
  } catch {
    return null;
  }
}
