import type { SubgraphDefinition } from '../../../platform/graphql/subgraph.js';
import { statusResolver } from '../../../platform/graphql/service-status.js';
import { resolveUserReference } from '../../../platform/graphql/user.js';
import { UserType } from './user/user.type.js';
import { NotifyUserResolver } from './user/user.resolver.js';
import type { ServiceModule } from '../../../platform/service-module.js';
import type { NotifyDeps } from './deps.js';
import { Template } from './templates/template.entity.js';
import { TemplateResolver } from './templates/template.resolver.js';
import { TemplateRenderer } from './templates/template.render.js';
import { Recipient } from './recipients/recipient.entity.js';
import { RecipientResolver } from './recipients/recipient.resolver.js';
import { NotificationResolver } from './send/notification.resolver.js';
import { Dispatcher } from './dispatch/dispatch.worker.js';
import { BatchResolver } from './batch/batch.resolver.js';
import { ChannelProviders } from './channels/registry.js';
import { SandboxResolver } from './channels/sandbox.resolver.js';
import { trackingRoutes } from './tracking/tracking.routes.js';
import { NotifyDataExportResolver, resolveNotifyDataExportReference, UserDataExportType } from './privacy/privacy.resolver.js';
import { notifyPrivacy } from './privacy/privacy.worker.js';

/** Bodies of 10,000-recipient batches; the gateway (SERVICE_MAX_JSON_BODY) and the REST route allow the same. */
export const NOTIFY_BODY_LIMIT = '10mb';

export const notifySubgraph: SubgraphDefinition<NotifyDeps> = {
  name: 'notify',
  resolvers: [
    statusResolver('notify'),
    TemplateResolver,
    RecipientResolver,
    NotificationResolver,
    BatchResolver,
    SandboxResolver,
    NotifyUserResolver,
    NotifyDataExportResolver,
  ],
  // reached only through federation (User references from other subgraphs, the export from verification)
  orphanedTypes: [UserType, UserDataExportType],
  referenceResolvers: { User: resolveUserReference, UserDataExport: resolveNotifyDataExportReference },
  bodyLimit: NOTIFY_BODY_LIMIT,
  routes: trackingRoutes,
};

/** Notification dispatch: templates, recipients, send, batches, channels (sandbox + SMTP, Africa's Talking, FCM, Web Push), tracking. */
export const notifyService: ServiceModule<NotifyDeps> = {
  name: 'notify',
  definition: notifySubgraph,
  entities: [Template, Recipient],
  // a channel's every move, and a batch's end
  webhookEvents: ['notification.dispatched', 'notification.updated', 'batch.completed'],
  async setup(rt) {
    const providers = new ChannelProviders(rt.config, rt.pool, rt.ca);
    const renderer = new TemplateRenderer();
    const boss = await rt.jobs();
    const logger = rt.logger.child({ service: 'notify' });
    const dispatcher = new Dispatcher({
      pool: rt.pool,
      boss,
      providers,
      renderer,
      logger,
      retryDelays: rt.config.NOTIFY_RETRY_DELAYS,
      publicUrl: rt.config.NOTIFY_PUBLIC_URL,
      leaseSeconds: rt.config.NOTIFY_CLAIM_LEASE_SECONDS,
    });
    const privacy = notifyPrivacy({
      pool: rt.pool,
      keyring: rt.keyring,
      events: rt.events,
      logger,
      sweepMs: rt.config.PRIVACY_SWEEP_MS,
      retentionSweepMs: rt.config.RETENTION_SWEEP_MS,
    });
    return {
      deps: { config: rt.config, logger, pool: rt.pool, providers, renderer, jobs: boss, kick: () => dispatcher.kick() },
      start: async () => {
        await dispatcher.start();
        privacy.start();
      },
      stop: async () => {
        await privacy.stop();
        await dispatcher.stop();
        await providers.close();
      },
    };
  },
};
