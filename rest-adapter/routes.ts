import type { Route } from './route.js';
import { adminRoutes } from './routes/admin.js';
import { identityRoutes } from './routes/identity.js';
import { webhookRoutes } from './routes/webhooks.js';
import { notifyRoutes } from './routes/notify.js';

/** Every published REST endpoint (each Form a route of its own); served with and without `/v1`. */
export const routes: readonly Route[] = [...adminRoutes, ...identityRoutes, ...webhookRoutes, ...notifyRoutes];
