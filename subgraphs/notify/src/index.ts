import type { SubgraphDefinition } from '../../../platform/graphql/subgraph.js';
import { statusResolver } from '../../../platform/graphql/service-status.js';
import type { ServiceModule } from '../../../platform/service-module.js';
import { capabilityParts, startCapabilities } from '../../../platform/capability.js';
import type { NotifyShared } from './notify.shared.js';
import { TemplateRenderer } from './templates/template.render.js';
import { ChannelProviders } from './channels/registry.js';
import { Dispatcher, dispatchQueueMetrics } from './notifications/dispatch.worker.js';
import { templatesCapability } from './templates/templates.module.js';
import { recipientsCapability } from './recipients/recipients.module.js';
import { channelsCapability } from './channels/channels.module.js';
import { notificationsCapability } from './notifications/notifications.module.js';
import { batchCapability } from './batch/batch.module.js';
import { userCapability } from './user/user.module.js';
import { privacyCapability } from './privacy/privacy.module.js';

/** Bodies of 10,000-recipient batches; the gateway (SERVICE_MAX_JSON_BODY) and the REST route allow the same. */
export const NOTIFY_BODY_LIMIT = '10mb';

/** Notify's capabilities: adding one is its folder with its module, and a line here. */
const CAPABILITIES = [
  templatesCapability,
  recipientsCapability,
  channelsCapability,
  notificationsCapability,
  batchCapability,
  userCapability,
  privacyCapability,
];

const parts = capabilityParts(CAPABILITIES);

export const notifySubgraph: SubgraphDefinition<NotifyShared> = {
  name: 'notify',
  resolvers: [statusResolver('notify'), ...parts.resolvers],
  orphanedTypes: parts.orphanedTypes,
  referenceResolvers: parts.references,
  bodyLimit: NOTIFY_BODY_LIMIT,
  routes: parts.routes,
};

/** Notification dispatch: templates, recipients, send, batches, channels (sandbox + SMTP, Africa's Talking, FCM, Web Push), tracking. */
export const notifyService: ServiceModule<NotifyShared> = {
  name: 'notify',
  definition: notifySubgraph,
  entities: parts.entities,
  webhookEvents: parts.webhookEvents,
  async setup(rt) {
    const providers = new ChannelProviders(rt.config, rt.pool, rt.ca);
    const renderer = new TemplateRenderer();
    const logger = rt.logger.child({ service: 'notify' });
    // the one machinery every notification goes through: accepted → dispatched per channel
    const dispatcher = new Dispatcher({
      pool: rt.pool,
      providers,
      renderer,
      logger,
      retryDelays: rt.config.NOTIFY_RETRY_DELAYS,
      publicUrl: rt.config.NOTIFY_PUBLIC_URL,
      leaseSeconds: rt.config.NOTIFY_CLAIM_LEASE_SECONDS,
      pollSeconds: rt.config.JOB_POLL_SECONDS,
    });
    const shared: NotifyShared = {
      config: rt.config,
      logger,
      pool: rt.pool,
      keyring: rt.keyring,
      events: rt.events,
      providers,
      renderer,
      kick: () => dispatcher.kick(),
    };
    const capabilities = await startCapabilities(CAPABILITIES, shared);
    return {
      deps: capabilities.deps,
      metrics: dispatchQueueMetrics(rt.pool, logger),
      start: async () => {
        dispatcher.start();
        await capabilities.start();
      },
      stop: async () => {
        await capabilities.stop();
        await dispatcher.stop();
        await providers.close();
      },
    };
  },
};
