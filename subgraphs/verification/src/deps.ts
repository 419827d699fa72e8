import type { Config } from '../../../platform/config.js';
import type { Logger } from '../../../platform/logger.js';
import type { ScreeningEngine } from '../../../screening/index.js';
import type { IpFeedStore } from './ip/ip-feeds.store.js';
import type { IpIntelligence } from './ip/ip.service.js';
import type { AmlJobs, ListCatalog } from './aml/aml.service.js';
import type { WatchlistDeps } from './watchlist/watchlist.service.js';
import type { Keyring } from '../../../platform/crypto/keyring.js';
import type { KeyOperations } from '../../../platform/crypto/key-operations.js';
import type { FileService } from '../../../platform/storage/file-store.js';
import type { VisionPool } from './vision/vision.pool.js';
import type { TextReader } from './vision/text-reader.js';
import type { DocumentJobs } from './document/document.service.js';
import type { FaceGalleries } from './biometrics/enrollment.store.js';
import type { MobileMoneyAdapters } from './mobile-money/adapters/registry.js';
import type { AddressJobs } from './address/address.service.js';
import type { OtpDeps } from './otp/otp.service.js';
import type { Orm } from '../../../platform/db/orm.js';
import type { BusinessRegistries } from './business/registries.js';
import type { BusinessJobs } from './business/business.service.js';

/** What the verification subgraph's resolvers need beyond the request context. */
export interface VerificationDeps {
  config: Config;
  /** Wakes this process's delivery worker (a redelivery is due now). */
  deliveries: { wake(): void };
  /** Sanctions/PEP list matching over the newest list snapshots (reloaded on every new snapshot). */
  screening: ScreeningEngine;
  /** Imported IP feeds (datacenter ranges, Tor, VPN/proxy lists) and the IP analysis over them. */
  ipFeeds: IpFeedStore;
  ipIntelligence: IpIntelligence;
  /** AML: which loaded list is of which kind; batch jobs. */
  amlCatalog: ListCatalog;
  amlJobs: AmlJobs;
  /** Watchlist monitoring: the engine and the scan schedule. */
  watchlist: WatchlistDeps;
  /** Signs session tokens (the gateway checks them with the same secret). */
  internalSecret: string;
  /** Uploaded files (document images, selfies), read and written through the tenant. */
  files: FileService;
  /** Envelope encryption: blind indexes for searching sealed columns, sealing of SQL-written ones. */
  keyring: Keyring;
  /** The operator's data key rotation and re-encryption. */
  keys: KeyOperations;
  /** Face models in worker threads, and OCR: started on first use. */
  vision: VisionPool;
  text: TextReader;
  logger: Logger;
  /** Queues document checks (pg-boss). */
  documentJobs: DocumentJobs;
  /** Queues address document checks (pg-boss). */
  addressJobs: AddressJobs;
  /** Enrolled faces for biometric dedup, searched in this process's memory (or through pgvector). */
  faceGalleries: FaceGalleries;
  /** Mobile money operators' account lookups: the sandbox, and the real adapters configured (MTN MoMo). */
  mobileMoney: MobileMoneyAdapters;
  /** Phone and email codes: their secret, policy per kind, notify as the sender, where magic links point. */
  otp: OtpDeps;
  /** For plain HTTP routes outside a GraphQL request (magic links). */
  orm: Orm;
  /** Company registries (sandbox, OpenCorporates) and the registry lookup jobs of business verifications. */
  businessRegistries: BusinessRegistries;
  businessJobs: BusinessJobs;
}
