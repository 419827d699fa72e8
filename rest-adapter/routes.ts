import type { Route } from '../platform/rest/route.js';
import { adminRoutes } from '../subgraphs/verification/src/admin/admin.rest.js';
import { identityRoutes } from '../subgraphs/verification/src/identity/identity.rest.js';
import { documentRoutes } from '../subgraphs/verification/src/document/document.rest.js';
import { livenessRoutes } from '../subgraphs/verification/src/liveness/liveness.rest.js';
import { cognitiveKycRoutes } from '../subgraphs/verification/src/cognitive-kyc/cognitive-kyc.rest.js';
import { businessRoutes } from '../subgraphs/verification/src/business/business.rest.js';
import { webhookRoutes } from '../subgraphs/verification/src/webhooks/webhooks.rest.js';
import { notificationRoutes, sendRoutes } from '../subgraphs/notify/src/notifications/notifications.rest.js';
import { batchRoutes } from '../subgraphs/notify/src/batch/batch.rest.js';
import { templateRoutes } from '../subgraphs/notify/src/templates/templates.rest.js';
import { recipientRoutes } from '../subgraphs/notify/src/recipients/recipients.rest.js';
import { channelRoutes } from '../subgraphs/notify/src/channels/channels.rest.js';
import { deviceRoutes } from '../subgraphs/verification/src/device/device.rest.js';
import { ipRoutes } from '../subgraphs/verification/src/ip/ip.rest.js';
import { screeningRoutes } from '../subgraphs/verification/src/aml/aml.rest.js';
import { watchlistRoutes } from '../subgraphs/verification/src/watchlist/watchlist.rest.js';
import { evaluationRoutes } from '../subgraphs/risk/src/evaluation/evaluation.rest.js';
import { ruleRoutes } from '../subgraphs/risk/src/rules/rules.rest.js';
import { graphRoutes } from '../subgraphs/risk/src/graph/graph.rest.js';
import { biometricsRoutes } from '../subgraphs/verification/src/biometrics/biometrics.rest.js';
import { mobileMoneyRoutes } from '../subgraphs/verification/src/mobile-money/mobile-money.rest.js';
import { addressRoutes } from '../subgraphs/verification/src/address/address.rest.js';
import { emailRoutes, phoneRoutes } from '../subgraphs/verification/src/otp/otp.rest.js';
import { flowRoutes } from '../subgraphs/verification/src/flows/flow.rest.js';
import { privacyRoutes } from '../subgraphs/verification/src/privacy/privacy.rest.js';
import { auditRoutes } from '../subgraphs/verification/src/audit/audit.rest.js';

/**
 * Every published REST endpoint (each Form a route of its own); served with and without `/v1`.
 * Each capability keeps its routes and their GraphQL fragments beside its module
 * (`<capability>/<capability>.rest.ts`): data and GraphQL text only, so the adapter loads none of
 * the services' code. The order is OpenAPI's.
 */
export const routes: readonly Route[] = [
  ...adminRoutes,
  ...identityRoutes,
  ...documentRoutes,
  ...livenessRoutes,
  ...cognitiveKycRoutes,
  ...businessRoutes,
  ...webhookRoutes,
  ...sendRoutes,
  ...batchRoutes,
  ...notificationRoutes,
  ...templateRoutes,
  ...recipientRoutes,
  ...channelRoutes,
  ...deviceRoutes,
  ...ipRoutes,
  ...screeningRoutes,
  ...watchlistRoutes,
  ...evaluationRoutes,
  ...ruleRoutes,
  ...graphRoutes,
  ...biometricsRoutes,
  ...mobileMoneyRoutes,
  ...addressRoutes,
  ...phoneRoutes,
  ...emailRoutes,
  ...flowRoutes,
  ...privacyRoutes,
  ...auditRoutes,
];
