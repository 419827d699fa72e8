import DataLoader from 'dataloader';
import { forbidden } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/auth/tenant.js';
import type { SubgraphContext } from '../../../platform/graphql/subgraph.js';
import { isUuid } from '../../../platform/ids.js';
import type { NotifyShared } from './notify.shared.js';
import { loadBatches, type BatchView } from './batch/batch.store.js';
import { loadViews, type NotificationView } from './notifications/notification.store.js';
import type { Recipient } from './recipients/recipient.entity.js';
import { RecipientService } from './recipients/recipient.service.js';
import type { Template } from './templates/template.entity.js';
import { TemplateService } from './templates/template.service.js';

type Ctx = SubgraphContext<NotifyShared>;

/**
 * The records a notification, batch or sandbox message refers to, loaded for a whole page in one
 * query per kind, in the caller's tenant (the root field checked the permission). Templates never
 * change and are kept for the request; the others are read again each time (a subscription keeps
 * its context for every event).
 */
export interface NotifyLoaders {
  template: DataLoader<string, Template | null>;
  batch: DataLoader<string, BatchView | null>;
  recipient: DataLoader<string, Recipient | null>;
  notification: DataLoader<string, NotificationView | null>;
}

const loaders = new WeakMap<object, NotifyLoaders>();

export function loadersOf(ctx: Ctx): NotifyLoaders {
  let found = loaders.get(ctx);
  if (!found) {
    found = createLoaders(ctx, tenantOf(ctx));
    loaders.set(ctx, found);
  }
  return found;
}

function tenantOf(ctx: Ctx): Tenant {
  if (!ctx.tenant) throw forbidden('An API key is required for this operation');
  return ctx.tenant;
}

const inOrder = <T>(ids: readonly string[], found: readonly T[], idOf: (record: T) => string): Array<T | null> => {
  const byId = new Map(found.map((record) => [idOf(record), record]));
  return ids.map((id) => byId.get(id) ?? null);
};

function createLoaders(ctx: Ctx, tenant: Tenant): NotifyLoaders {
  const { pool } = ctx.deps;
  return {
    template: new DataLoader(async (ids) => inOrder(ids, await new TemplateService(ctx.em.fork(), tenant).findByIds(ids), (t) => t.id)),
    batch: new DataLoader(async (ids) => inOrder(ids, await loadBatches(pool, tenant, ids.filter(isUuid)), (b) => b.id), {
      cache: false,
    }),
    recipient: new DataLoader(async (ids) => inOrder(ids, await new RecipientService(ctx.em.fork(), tenant).findByIds(ids), (r) => r.id), {
      cache: false,
    }),
    notification: new DataLoader(
      async (ids) => {
        const views = await loadViews(pool, ids.filter(isUuid));
        const own = views.filter((v) => v.organizationId === tenant.organizationId && v.environment === tenant.environment);
        return inOrder(ids, own, (v) => v.id);
      },
      { cache: false },
    ),
  };
}
