import type { Route } from './route.js';
import { adminRoutes } from './routes/admin.js';
import { identityRoutes } from './routes/identity.js';
import { documentRoutes } from './routes/documents.js';
import { cognitiveKycRoutes } from './routes/cognitive-kyc.js';
import { webhookRoutes } from './routes/webhooks.js';
import { notifyRoutes } from './routes/notify.js';
import { intelligenceRoutes } from './routes/intelligence.js';
import { screeningRoutes, watchlistRoutes } from './routes/screening.js';
import { riskRoutes } from './routes/risk.js';
import { livenessRoutes } from './routes/liveness.js';
import { biometricsRoutes } from './routes/biometrics.js';
import { mobileMoneyRoutes } from './routes/mobile-money.js';
import { addressRoutes } from './routes/address.js';
import { emailRoutes, phoneRoutes } from './routes/otp.js';
import { businessRoutes } from './routes/business.js';
import { privacyRoutes } from './routes/privacy.js';
import { auditRoutes } from './routes/audit.js';

/** Every published REST endpoint (each Form a route of its own); served with and without `/v1`. */
export const routes: readonly Route[] = [
  ...adminRoutes,
  ...identityRoutes,
  ...documentRoutes,
  ...livenessRoutes,
  ...cognitiveKycRoutes,
  ...businessRoutes,
  ...webhookRoutes,
  ...notifyRoutes,
  ...intelligenceRoutes,
  ...screeningRoutes,
  ...watchlistRoutes,
  ...riskRoutes,
  ...biometricsRoutes,
  ...mobileMoneyRoutes,
  ...addressRoutes,
  ...phoneRoutes,
  ...emailRoutes,
  ...privacyRoutes,
  ...auditRoutes,
];
