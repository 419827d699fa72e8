import path from 'node:path';
import type { SubgraphDefinition } from '../../../platform/graphql/subgraph.js';
import { FileService, FolderBlobStore } from '../../../platform/storage/file-store.js';
import { statusResolver } from '../../../platform/graphql/service-status.js';
import type { ServiceModule } from '../../../platform/service-module.js';
import { capabilityParts, startCapabilities } from '../../../platform/capability.js';
import { openOrm } from '../../../platform/db/orm.js';
import { PLATFORM_ENTITIES } from '../../../platform/entities.js';
import { recordAudit } from '../../../platform/audit/audit.js';
import { FILE_ROUTE, serveFiles } from '../../../platform/storage/file-routes.js';
import { acquireScreeningEngine } from '../../../screening/index.js';
import type { VerificationShared } from './verification.shared.js';
import { VisionPool } from './vision/vision.pool.js';
import { importDefaultData } from './lists/default-data.js';
import { ListCatalog } from './aml/aml.service.js';
import { adminCapability } from './admin/admin.module.js';
import { identityCapability } from './identity/identity.module.js';
import { webhooksCapability } from './webhooks/webhooks.module.js';
import { listsCapability } from './lists/lists.module.js';
import { ipCapability } from './ip/ip.module.js';
import { deviceCapability } from './device/device.module.js';
import { amlCapability } from './aml/aml.module.js';
import { watchlistCapability } from './watchlist/watchlist.module.js';
import { sessionsCapability } from './sessions/sessions.module.js';
import { flowsCapability } from './flows/flows.module.js';
import { userCapability } from './user/user.module.js';
import { documentCapability } from './document/document.module.js';
import { livenessCapability } from './liveness/liveness.module.js';
import { biometricsCapability } from './biometrics/biometrics.module.js';
import { cognitiveKycCapability } from './cognitive-kyc/cognitive-kyc.module.js';
import { mobileMoneyCapability } from './mobile-money/mobile-money.module.js';
import { addressCapability } from './address/address.module.js';
import { otpCapability } from './otp/otp.module.js';
import { businessCapability } from './business/business.module.js';
import { auditCapability } from './audit/audit.module.js';
import { privacyCapability } from './privacy/privacy.module.js';

/**
 * The verification service's capabilities. Adding one: its folder with its module, and a line
 * here. Their order is the schema's and the start's (workers stop in reverse: privacy first).
 */
const CAPABILITIES = [
  adminCapability,
  identityCapability,
  webhooksCapability,
  listsCapability,
  ipCapability,
  deviceCapability,
  amlCapability,
  watchlistCapability,
  sessionsCapability,
  flowsCapability,
  userCapability,
  documentCapability,
  livenessCapability,
  biometricsCapability,
  cognitiveKycCapability,
  mobileMoneyCapability,
  addressCapability,
  otpCapability,
  businessCapability,
  auditCapability,
  privacyCapability,
];

const parts = capabilityParts(CAPABILITIES);

/** Verification's entities and the platform's it writes (outbox events, webhooks, API clients). */
export const verificationEntities = [...PLATFORM_ENTITIES, ...parts.entities];

export const verificationSubgraph: SubgraphDefinition<VerificationShared> = {
  name: 'verification',
  // images sent as base64 (a selfie and a document of up to 10 MB each); the gateway allows the same
  bodyLimit: '28mb',
  resolvers: [statusResolver('verification'), ...parts.resolvers],
  referenceResolvers: parts.references,
  routes: (app, deps) => {
    // uploaded files (document images, selfies), for the gateway's /files/<id>
    app.get(
      FILE_ROUTE,
      serveFiles({
        files: deps.files,
        internalSecret: deps.internalSecret,
        audience: 'verification',
        logger: deps.logger,
        audit: (record) => recordAudit(deps.orm.em.fork(), record),
      }),
    );
    parts.routes(app, deps);
  },
};

export const verificationService: ServiceModule<VerificationShared> = {
  name: 'verification',
  definition: verificationSubgraph,
  entities: verificationEntities,
  webhookEvents: parts.webhookEvents,
  async setup(rt) {
    // the screening index is loaded before the subgraph serves (AML must never screen an empty index)
    const { engine: screening, release: releaseScreening } = await acquireScreeningEngine({
      pool: rt.pool,
      events: rt.events,
      logger: rt.logger.child({ component: 'screening' }),
    });
    // jobs, sweeps and plain routes run with an EntityManager of their own
    const orm = await openOrm({ url: rt.databaseUrl, entities: verificationEntities, logger: rt.logger, poolSize: 4, keyring: rt.keyring });
    // first start: the lists and IP feeds shipped in data/ are imported in the background
    const defaultData = rt.config.DEFAULT_SCREENING_DATA
      ? importDefaultData({ pool: rt.pool, engine: screening, logger: rt.logger.child({ component: 'screening' }) })
      : null;
    // the models: loaded on first use, stopped when idle, closed with the stack's resources (or kept for the next stack of the process)
    const vision = rt.resources.get(
      `vision:${rt.config.VISION_WORKERS}:${rt.config.VISION_TIMEOUT_MS}:${rt.config.VISION_IDLE_MS}`,
      () =>
        new VisionPool({
          size: rt.config.VISION_WORKERS,
          timeoutMs: rt.config.VISION_TIMEOUT_MS,
          idleMs: rt.config.VISION_IDLE_MS,
          logger: rt.logger.child({ component: 'vision' }),
        }),
      (pool) => pool.close(),
    );
    const shared: VerificationShared = {
      ...rt,
      screening,
      amlCatalog: new ListCatalog(rt.pool, screening, () => defaultData?.importing() ?? false),
      files: new FileService(rt.pool, new FolderBlobStore(path.resolve(rt.config.STORAGE_DIR)), rt.keyring),
      vision,
      orm,
    };
    const capabilities = await startCapabilities(CAPABILITIES, shared);
    return {
      deps: capabilities.deps,
      metrics: [...screening.metrics, ...vision.metrics.metrics],
      start: capabilities.start,
      stop: async () => {
        await capabilities.stop();
        await orm.close();
        await defaultData?.stop();
        await releaseScreening();
      },
    };
  },
};
