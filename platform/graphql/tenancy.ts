import type { ServiceName } from '../auth/principal.js';
import { requirePermission } from '../auth/permissions.js';
import type { Tenant } from '../auth/tenant.js';
import type { OutboxNotice, StreamedEvent } from '../events/event-stream.js';
import type { SubgraphContext } from './subgraph.js';

/**
 * The one tenancy check of a resolver: the caller's key must belong to `service` and hold
 * `permission`; returns the tenant every read and write of the request is scoped to.
 */
export function authorize(ctx: SubgraphContext<unknown>, service: ServiceName, permission: string): Tenant {
  requirePermission(ctx.principal, service, permission);
  return ctx.tenant!;
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
