import path from 'node:path';
import type { SubgraphDefinition } from '../../../platform/graphql/subgraph.js';
import { FileService, FolderBlobStore } from '../../../platform/storage/file-store.js';
import { VisionPool } from './vision/vision.pool.js';
import { TextReader } from './vision/text-reader.js';
import { statusResolver } from '../../../platform/graphql/service-status.js';
import type { ServiceModule } from '../../../platform/service-module.js';
import type { VerificationDeps } from './deps.js';
import { IdentityVerification } from './identity/identity.entity.js';
import { IdentityResolver, resolveIdentityReference } from './identity/identity.resolver.js';
import { ApiClientResolver } from './admin/api-client.resolver.js';
import { WebhookDeliveryResolver, WebhookResolver } from './webhooks/webhook.resolver.js';
import { VERIFICATION_WEBHOOK_EVENTS } from './webhooks/webhook.service.js';
import { acquireScreeningEngine } from '../../../screening/index.js';
import { importDefaultData } from './lists/default-data.js';
import { ListsResolver } from './lists/lists.resolver.js';
import { ListSnapshot } from './lists/lists.entity.js';
import { IpCheck } from './ip/ip.entity.js';
import { DeviceAssessment } from './device/device.entity.js';
import { DeviceResolver } from './device/device.resolver.js';
import { IpResolver } from './ip/ip.resolver.js';
import { IpFeedStore } from './ip/ip-feeds.store.js';
import { IpIntelligence } from './ip/ip.service.js';
import { openOrm } from '../../../platform/db/orm.js';
import { AmlBatch, AmlBatchSubject, AmlHit, AmlScreening } from './aml/aml.entity.js';
import { AmlBatchResolver, AmlResolver } from './aml/aml.resolver.js';
import { ListCatalog } from './aml/aml.service.js';
import { AmlWorker } from './aml/aml.worker.js';
import { WatchlistAlert, WatchlistMatch, WatchlistSubscription } from './watchlist/watchlist.entity.js';
import { WatchlistAlertResolver, WatchlistSubscriptionResolver } from './watchlist/watchlist.resolver.js';
import { WatchlistWorker } from './watchlist/watchlist.worker.js';
import { SessionResolver } from './sessions/session.resolver.js';
import { UserResolver } from './user/user.resolver.js';
import { resolveUserReference } from '../../../platform/graphql/user.js';
import { DocumentVerification } from './document/document.entity.js';
import { DocumentResolver, resolveDocumentReference } from './document/document.resolver.js';
import { DocumentWorker } from './document/document.worker.js';
import { CognitiveKycCheck } from './cognitive-kyc/cognitive-kyc.entity.js';
import { CognitiveKycResolver, FraudHistoryResolver, resolveCognitiveKycReference } from './cognitive-kyc/cognitive-kyc.resolver.js';
import { AuditResolver } from './audit/audit.resolver.js';
import { EncryptionResolver } from './admin/encryption.resolver.js';
import { KeyOperations } from '../../../platform/crypto/key-operations.js';
import { recordAudit } from '../../../platform/audit/audit.js';
import { FILE_ROUTE, serveFiles } from '../../../platform/storage/file-routes.js';
import { LivenessSession } from './liveness/liveness.entity.js';
import { LivenessResolver, resolveLivenessReference } from './liveness/liveness.resolver.js';
import { LivenessExpiryWorker } from './liveness/liveness.worker.js';
import { IdentityOrchestrator } from './identity/identity.orchestrator.js';
import { BiometricDedupCheck } from './biometrics/dedup.entity.js';
import { BiometricDedupResolver, BiometricEnrollmentResolver } from './biometrics/dedup.resolver.js';
import { FaceGalleries } from './biometrics/enrollment.store.js';
import { hasPgvector } from './biometrics/pgvector.js';
import { MobileMoneyVerification } from './mobile-money/mobile-money.entity.js';
import { MobileMoneyResolver, resolveMobileMoneyReference } from './mobile-money/mobile-money.resolver.js';
import { MobileMoneyAdapters } from './mobile-money/adapters/registry.js';
import { mobileMoneySweep as settleMobileMoneyLookups } from './mobile-money/mobile-money.worker.js';
import { AddressVerification } from './address/address.entity.js';
import { AddressResolver, resolveAddressReference } from './address/address.resolver.js';
import { AddressWorker } from './address/address.worker.js';
import { OtpVerification } from './otp/otp.entity.js';
import { EmailVerificationResolver, PhoneVerificationResolver, resolveEmailReference, resolvePhoneReference } from './otp/otp.resolver.js';
import { otpExpiryWorker } from './otp/otp.worker.js';
import { otpDeps } from './otp/otp.config.js';
import { MAGIC_LINK_PATH, serveMagicLinks } from './otp/magic-link.route.js';
import { BusinessPerson, BusinessVerification } from './business/business.entity.js';
import { BusinessDirectorResolver, BusinessResolver, BusinessUboResolver, resolveBusinessReference } from './business/business.resolver.js';
import { BusinessRegistries } from './business/registries.js';
import { BusinessWorker } from './business/business.worker.js';
import {
  RetentionResolver,
  resolveUserDataExportReference,
  UserDataExportResolver,
  UserErasureResolver,
} from './privacy/privacy.resolver.js';
import { privacyWorkers } from './privacy/privacy.worker.js';
import { PLATFORM_ENTITIES } from '../../../platform/entities.js';

/** Verification's entities and the platform's it writes (outbox events, webhooks, API clients). */
export const verificationEntities = [
  ...PLATFORM_ENTITIES,
  IdentityVerification,
  IpCheck,
  DeviceAssessment,
  AmlScreening,
  AmlHit,
  AmlBatch,
  AmlBatchSubject,
  WatchlistSubscription,
  WatchlistAlert,
  WatchlistMatch,
  ListSnapshot,
  DocumentVerification,
  LivenessSession,
  BiometricDedupCheck,
  CognitiveKycCheck,
  MobileMoneyVerification,
  AddressVerification,
  OtpVerification,
  BusinessVerification,
  BusinessPerson,
];

export const verificationSubgraph: SubgraphDefinition<VerificationDeps> = {
  name: 'verification',
  // images sent as base64 (a selfie and a document of up to 10 MB each); the gateway allows the same
  bodyLimit: '28mb',
  resolvers: [
    statusResolver('verification'),
    ApiClientResolver,
    IdentityResolver,
    WebhookResolver,
    WebhookDeliveryResolver,
    ListsResolver,
    IpResolver,
    DeviceResolver,
    AmlResolver,
    AmlBatchResolver,
    WatchlistSubscriptionResolver,
    WatchlistAlertResolver,
    SessionResolver,
    UserResolver,
    DocumentResolver,
    LivenessResolver,
    BiometricDedupResolver,
    BiometricEnrollmentResolver,
    CognitiveKycResolver,
    FraudHistoryResolver,
    MobileMoneyResolver,
    AddressResolver,
    PhoneVerificationResolver,
    EmailVerificationResolver,
    BusinessResolver,
    BusinessDirectorResolver,
    BusinessUboResolver,
    UserErasureResolver,
    UserDataExportResolver,
    RetentionResolver,
    AuditResolver,
    EncryptionResolver,
  ],
  referenceResolvers: {
    IdentityVerification: resolveIdentityReference,
    DocumentVerification: resolveDocumentReference,
    LivenessSession: resolveLivenessReference,
    CognitiveKycCheck: resolveCognitiveKycReference,
    MobileMoneyVerification: resolveMobileMoneyReference,
    AddressVerification: resolveAddressReference,
    PhoneVerification: resolvePhoneReference,
    EmailVerification: resolveEmailReference,
    BusinessVerification: resolveBusinessReference,
    User: resolveUserReference,
    UserDataExport: resolveUserDataExportReference,
  },
  // uploaded files (document images), for the gateway's /files/<id>; magic links, public (their token is the credential)
  routes: (app, deps) => {
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
    app.get(MAGIC_LINK_PATH, serveMagicLinks({ orm: deps.orm, otp: deps.otp, logger: deps.logger }));
  },
};

export const verificationService: ServiceModule<VerificationDeps> = {
  name: 'verification',
  definition: verificationSubgraph,
  entities: verificationEntities,
  webhookEvents: VERIFICATION_WEBHOOK_EVENTS,
  async setup(rt) {
    // the screening index is loaded before the subgraph serves (AML must never screen an empty index)
    const { engine: screening, release: releaseScreening } = await acquireScreeningEngine({
      pool: rt.pool,
      logger: rt.logger.child({ component: 'screening' }),
    });
    const ipFeeds = new IpFeedStore(rt.pool);
    const ipIntelligence = new IpIntelligence(ipFeeds, rt.pool);
    // AML batches, callbacks and watchlist scans run in jobs with an EntityManager of their own
    const workerOrm = await openOrm({
      url: rt.databaseUrl,
      entities: verificationEntities,
      logger: rt.logger,
      poolSize: 4,
      keyring: rt.keyring,
    });
    // first start: the lists and IP feeds shipped in data/ are imported in the background
    const defaultData = rt.config.DEFAULT_SCREENING_DATA
      ? importDefaultData({ pool: rt.pool, engine: screening, logger: rt.logger.child({ component: 'screening' }) })
      : null;
    const amlCatalog = new ListCatalog(rt.pool, screening, () => defaultData?.importing() ?? false);
    const amlJobs = new AmlWorker({
      orm: workerOrm,
      boss: await rt.jobs(),
      deliveries: rt.deliveries,
      logger: rt.logger.child({ component: 'aml' }),
      screening,
      catalog: amlCatalog,
    });
    const watchlist = {
      screening,
      scanIntervalMs: rt.config.WATCHLIST_SCAN_INTERVAL_HOURS * 3_600_000,
      matchThreshold: rt.config.WATCHLIST_MATCH_THRESHOLD,
    };
    const files = new FileService(rt.pool, new FolderBlobStore(path.resolve(rt.config.STORAGE_DIR)), rt.keyring);
    // the models: loaded on first use, closed with the stack's resources (or kept for the next stack of the process)
    const vision = rt.resources.get(
      `vision:${rt.config.VISION_WORKERS}:${rt.config.VISION_TIMEOUT_MS}`,
      () =>
        new VisionPool({
          size: rt.config.VISION_WORKERS,
          timeoutMs: rt.config.VISION_TIMEOUT_MS,
          logger: rt.logger.child({ component: 'vision' }),
        }),
      (pool) => pool.close(),
    );
    const text = rt.resources.get(
      'ocr:eng',
      () => new TextReader(),
      (reader) => reader.close(),
    );
    const documentJobs = new DocumentWorker({
      orm: workerOrm,
      boss: await rt.jobs(),
      files,
      vision,
      text,
      logger: rt.logger.child({ component: 'documents' }),
    });
    // proofs of address are read with the English and French models together
    const addressText = rt.resources.get(
      'ocr:eng+fra',
      () => new TextReader(['eng', 'fra']),
      (reader) => reader.close(),
    );
    const addressJobs = new AddressWorker({
      orm: workerOrm,
      boss: await rt.jobs(),
      files,
      text: addressText,
      logger: rt.logger.child({ component: 'address' }),
    });
    const faceGalleries = new FaceGalleries(rt.keyring, await hasPgvector(rt.pool));
    const businessRegistries = new BusinessRegistries(rt.config);
    const businessJobs = new BusinessWorker({
      orm: workerOrm,
      boss: await rt.jobs(),
      registries: businessRegistries,
      retryDelays: rt.config.BUSINESS_REGISTRY_RETRY_DELAYS,
      timeoutMs: rt.config.BUSINESS_REGISTRY_TIMEOUT_MS,
      logger: rt.logger.child({ component: 'business' }),
    });
    const watchlistWorker = new WatchlistWorker({
      orm: workerOrm,
      screening,
      catalog: amlCatalog,
      logger: rt.logger.child({ component: 'watchlist' }),
      deps: watchlist,
      pollMs: rt.config.WATCHLIST_POLL_SECONDS * 1000,
    });
    const identityProgress = new IdentityOrchestrator({
      orm: workerOrm,
      events: rt.events,
      aml: { screening, catalog: amlCatalog },
      logger: rt.logger.child({ component: 'identity' }),
      sweepMs: rt.config.IDENTITY_SWEEP_MS,
    });
    const livenessExpiry = new LivenessExpiryWorker({
      orm: workerOrm,
      logger: rt.logger.child({ component: 'liveness' }),
      sweepMs: rt.config.LIVENESS_SWEEP_MS,
    });
    const mobileMoney = MobileMoneyAdapters.fromConfig(rt.config);
    const mobileMoneySweep = settleMobileMoneyLookups({
      orm: workerOrm,
      logger: rt.logger.child({ component: 'mobile-money' }),
      sweepMs: rt.config.MOBILE_MONEY_SWEEP_MS,
      timeoutMs: rt.config.MOBILE_MONEY_TIMEOUT_MS,
    });
    const otpExpiry = otpExpiryWorker({
      orm: workerOrm,
      logger: rt.logger.child({ component: 'otp' }),
      sweepMs: rt.config.OTP_SWEEP_MS,
    });
    const deps: VerificationDeps = {
      config: rt.config,
      deliveries: rt.deliveries,
      screening,
      ipFeeds,
      ipIntelligence,
      amlCatalog,
      amlJobs,
      watchlist,
      internalSecret: rt.internalSecret,
      files,
      keyring: rt.keyring,
      keys: new KeyOperations(rt.pool, rt.keyring, files),
      vision,
      text,
      documentJobs,
      addressJobs,
      logger: rt.logger,
      faceGalleries,
      mobileMoney,
      otp: otpDeps(rt),
      orm: workerOrm,
      businessRegistries,
      businessJobs,
    };
    // erasure of users' verification data (through the outbox) and retention of what is past its period
    const privacy = privacyWorkers({ rt, orm: workerOrm, deps });
    return {
      deps,
      start: async () => {
        await amlJobs.start();
        await documentJobs.start();
        await addressJobs.start();
        await businessJobs.start();
        watchlistWorker.start();
        livenessExpiry.start();
        otpExpiry.start();
        identityProgress.start();
        mobileMoneySweep.start();
        privacy.start();
      },
      stop: async () => {
        await privacy.stop();
        await mobileMoneySweep.stop();
        await identityProgress.stop();
        await livenessExpiry.stop();
        await otpExpiry.stop();
        await watchlistWorker.stop();
        await businessJobs.stop();
        await documentJobs.stop();
        await addressJobs.stop();
        await amlJobs.stop();
        await workerOrm.close();
        await defaultData?.stop();
        await releaseScreening();
      },
    };
  },
};
