import type { VerificationCapability } from '../verification.shared.js';
import { VerificationFlow } from './flow.entity.js';
import { FlowResolver, FlowUserFields } from './flow.resolver.js';
import { serveFlowLinks } from './flow.routes.js';
import { FlowService, type FlowDeps } from './flow.service.js';

/** Hosted verification flows: a one-use link to a page that takes one user through some checks (issue 32). */
export const flowsCapability: VerificationCapability<{ flows: FlowDeps }> = {
  name: 'flows',
  resolvers: [FlowResolver, FlowUserFields],
  entities: [VerificationFlow],
  webhookEvents: ['verification_flow.opened'],
  deps: (shared) => ({
    flows: {
      // the gateway this stack runs (its port known once it listens), or the one configured
      baseUrl: () =>
        (shared.config.FLOW_BASE_URL ?? new URL(shared.serviceUrl('gateway') ?? shared.config.GATEWAY_URL).origin).replace(/\/+$/, ''),
      internalSecret: shared.internalSecret,
      allowPrivateTargets: shared.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    },
  }),
  personalData: (em, tenant, deps) => ({ verificationFlows: new FlowService(em, tenant, deps.flows) }),
  // a link is its own credential
  routes: (app, deps) => serveFlowLinks(app, { orm: deps.orm, internalSecret: deps.internalSecret, logger: deps.logger }),
};
