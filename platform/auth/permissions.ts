import type { Principal, ServiceName } from './principal.js';
import { forbidden, invalid } from '../errors.js';

const VERIFICATION_AREAS = [
  'identity',
  'document',
  'liveness',
  'phone',
  'email',
  'address',
  'business',
  'mobile_money',
  'screening',
  'monitoring',
  'intelligence',
  'biometrics',
  'cognitive_kyc',
  'webhooks',
] as const;

/** Allowed permission strings per service (ARCHITECTURE.md "Identity, keys and environments"). */
export const PERMISSIONS: Record<ServiceName, readonly string[]> = {
  verification: VERIFICATION_AREAS.flatMap((area) => [area, `${area}:read`, `${area}:write`]),
  risk: ['evaluate', 'evaluations:read', 'rules:read', 'rules:write', 'graph:query'],
  notify: ['send', 'notifications:read', 'templates:read', 'templates:write'],
};

export function validatePermissions(service: ServiceName, permissions: string[]): void {
  const unknown = permissions.filter((p) => !PERMISSIONS[service].includes(p));
  if (unknown.length) {
    throw invalid(`permissions must be among: ${PERMISSIONS[service].join(', ')} (unknown: ${unknown.join(', ')})`);
  }
}

/**
 * Checks that a client principal of `service` may use `permission`. Empty permissions = all of the
 * service's. A verification area permission (`identity`) grants both `identity:read` and `:write`.
 */
export function requirePermission(
  principal: Principal | null,
  service: ServiceName,
  permission: string,
): asserts principal is Principal & { organizationId: string } {
  if (!principal || principal.kind !== 'client' || !principal.organizationId) {
    throw forbidden('An API key is required for this operation');
  }
  if (principal.service !== service) {
    throw forbidden(`This key belongs to the ${principal.service} service; use a ${service} key`);
  }
  const [area] = permission.split(':');
  const granted = principal.permissions.length === 0 || principal.permissions.includes(permission) || principal.permissions.includes(area);
  if (!granted) throw forbidden(`Insufficient permissions: requires ${permission}`);
}

export function requireAdmin(principal: Principal | null): void {
  if (principal?.kind !== 'admin') throw forbidden('Requires the X-Admin-Secret header');
}
