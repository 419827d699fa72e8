import { SESSION_SCOPES } from './session-token.js';
import type { KeyService, Principal, ServiceName } from './principal.js';
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
  // hosted verification flows (issue 32)
  'flow',
  'webhooks',
  // erasure, export and retention of users' personal data, in every service (issue 16)
  'privacy',
  'audit',
] as const;

const SERVICE_PERMISSIONS: Record<ServiceName, readonly string[]> = {
  verification: VERIFICATION_AREAS.flatMap((area) => [area, `${area}:read`, `${area}:write`]),
  risk: ['evaluate', 'evaluations:read', 'rules:read', 'rules:write', 'graph:query'],
  notify: ['send', 'notifications:read', 'templates:read', 'templates:write'],
};

/** Allowed permission strings per key service (ARCHITECTURE.md "Identity, keys and environments"); `all` = every service's. */
export const PERMISSIONS: Record<KeyService, readonly string[]> = {
  ...SERVICE_PERMISSIONS,
  all: Object.values(SERVICE_PERMISSIONS).flat(),
};

export function validatePermissions(service: KeyService, permissions: string[]): void {
  const unknown = permissions.filter((p) => !PERMISSIONS[service].includes(p));
  if (unknown.length) {
    throw invalid(`permissions must be among: ${PERMISSIONS[service].join(', ')} (unknown: ${unknown.join(', ')})`);
  }
}

/**
 * Checks that a client principal of `service` (or of every service) may use `permission`. Empty
 * permissions = all of the service's. A verification area permission (`identity`) grants both
 * `identity:read` and `:write`. A session may use only its scopes, and only those sessions can have.
 */
export function requirePermission(
  principal: Principal | null,
  service: ServiceName,
  permission: string,
): asserts principal is Principal & { organizationId: string } {
  if (!principal || principal.kind === 'admin' || !principal.organizationId) {
    throw forbidden('An API key is required for this operation');
  }
  if (principal.kind === 'session') {
    if (!sessionGrants(principal.permissions, permission)) {
      throw forbidden(`This session token may not ${permission}: its scopes are ${principal.permissions.join(', ')}`);
    }
    return;
  }
  if (principal.service !== service && principal.service !== 'all') {
    throw forbidden(`This key belongs to the ${principal.service} service; use a ${service} key`);
  }
  if (!grants(principal.permissions, permission)) throw forbidden(`Insufficient permissions: requires ${keyPermission(permission)}`);
}

/**
 * Whether a session's scopes grant `permission`: a scope it holds, or the reading of an area it may
 * submit to (`document:submit` reads and follows the user's own documents: a page that sends a
 * check shows how it ends).
 */
export function sessionGrants(scopes: readonly string[], permission: string): boolean {
  const scoped = (SESSION_SCOPES as readonly string[]).includes(permission) && scopes.includes(permission);
  return scoped || (permission.endsWith(':read') && scopes.includes(permission.replace(/:read$/, ':submit')));
}

/** The key permission that grants `permission`: `area:submit` (a session's scope, submitting a user's own check) is part of `area:write`. */
export const keyPermission = (permission: string): string => permission.replace(/:submit$/, ':write');

/** Whether a key's permissions (empty = all of its service's) grant `permission`; an area (`identity`) grants its `:read` and `:write`. */
export const grants = (permissions: readonly string[], permission: string): boolean =>
  permissions.length === 0 || permissions.includes(keyPermission(permission)) || permissions.includes(permission.split(':')[0]);

export function requireAdmin(principal: Principal | null): void {
  if (principal?.kind !== 'admin') throw forbidden('Requires the X-Admin-Secret header');
}
