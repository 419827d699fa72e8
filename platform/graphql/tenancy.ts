import type { ServiceName } from '../auth/principal.js';
import { requirePermission } from '../auth/permissions.js';
import type { Tenant } from '../auth/tenant.js';
import { forbidden } from '../errors.js';
import type { OutboxNotice, StreamedEvent } from '../events/event-stream.js';
import type { SubgraphContext } from './subgraph.js';

/**
 * The one tenancy check of a resolver: the caller's key must belong to `service` and hold
 * `permission`; returns the tenant every read and write of the request is scoped to. `forUser`:
 * the user a write creates a record for; a session may name only its own (else 403), and the
 * records it continues are found through the tenant, which carries its user.
 */
export function authorize(ctx: SubgraphContext<unknown>, service: ServiceName, permission: string, forUser?: string): Tenant {
  requirePermission(ctx.principal, service, permission);
  const tenant = ctx.tenant!;
  if (forUser !== undefined && tenant.userId !== undefined && forUser !== tenant.userId) {
    throw forbidden('This session token acts only for its own user');
  }
  return tenant;
}

export interface EventFilter {
  resourceId?: string | null;
  userId?: string | null;
  /** Only these event names (all when absent). */
  events?: readonly string[] | null;
}

/**
 * A subscription's source: committed events of one resource type for the caller's tenant (after
 * `authorize`), optionally of one resource, one user or some event names.
 */
export function tenantEvents(
  ctx: SubgraphContext<unknown>,
  access: { service: ServiceName; permission: string },
  resourceType: string,
  filter: EventFilter = {},
): AsyncIterableIterator<StreamedEvent> {
  const tenant = authorize(ctx, access.service, access.permission);
  const { resourceId, userId, events } = filter;
  return ctx.events.subscribe(
    (n: OutboxNotice) =>
      n.resourceType === resourceType &&
      n.organizationId === tenant.organizationId &&
      n.environment === tenant.environment &&
      (!tenant.userId || n.userId === tenant.userId) &&
      // given means given: an empty id follows nothing rather than everything
      (resourceId == null || n.resourceId === resourceId) &&
      (userId == null || n.userId === userId) &&
      (!events || events.includes(n.event)),
  );
}
