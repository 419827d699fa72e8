import type { NotifyCapability } from '../notify.shared.js';
import { NotificationResolver, NotificationUserFields } from './notification.resolver.js';
import { trackingRoutes } from './tracking.routes.js';

/** A notification: accepted, dispatched to its channels, tracked (opens, clicks, provider reports). */
export const notificationsCapability: NotifyCapability = {
  name: 'notifications',
  resolvers: [NotificationResolver, NotificationUserFields],
  // a channel's every move
  webhookEvents: ['notification.dispatched', 'notification.updated'],
  routes: trackingRoutes,
};
