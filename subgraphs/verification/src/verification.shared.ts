import type { Orm } from '../../../platform/db/orm.js';
import type { ServiceRuntime } from '../../../platform/service-module.js';
import type { Capability, CapabilityDeps } from '../../../platform/capability.js';
import type { SubgraphContext } from '../../../platform/graphql/subgraph.js';
import type { FileService } from '../../../platform/storage/file-store.js';
import type { ScreeningEngine } from '../../../screening/index.js';
import type { ListCatalog } from './aml/aml.service.js';
import type { VisionPool } from './vision/vision.pool.js';

/**
 * What the verification service builds once for all its capabilities (index.ts); each capability
 * builds the rest of what it needs in its module.
 */
export interface VerificationShared extends ServiceRuntime {
  /** Sanctions/PEP list matching over the newest list snapshots (reloaded on every new snapshot). */
  screening: ScreeningEngine;
  /** Which loaded list is of which kind (AML, watchlist, KYB and identity screen with it). */
  amlCatalog: ListCatalog;
  /** Uploaded files (document images, selfies), read and written through the tenant. */
  files: FileService;
  /** Face models and OCR (documents, zones, proofs of address) in worker processes: started on first use, stopped when idle. */
  vision: VisionPool;
  /** An EntityManager for jobs and plain routes outside a GraphQL request. */
  orm: Orm;
}

/** A capability of the verification service; `Deps` what it builds, `Needs` what it reads of another's. */
export type VerificationCapability<Deps extends object = object, Needs extends object = object> = Capability<
  VerificationShared,
  Deps,
  Needs
>;

/** A resolver's context: the shared dependencies, every capability's privacy parts, and `Deps` of its own. */
export type VerificationContext<Deps extends object = object> = SubgraphContext<VerificationShared & CapabilityDeps & Deps>;
