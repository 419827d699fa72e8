import type { MigrationClass } from '../../../platform/db/migrate.js';
import { Migration20261122020000Screening } from './Migration20261122020000Screening.js';
import { Migration20261122030000Intelligence } from './Migration20261122030000Intelligence.js';
import { Migration20261126000000WatchlistAlertCreatedAt } from './Migration20261126000000WatchlistAlertCreatedAt.js';
import { Migration20261127000000Documents } from './Migration20261127000000Documents.js';
import { Migration20261127010000Liveness } from './Migration20261127010000Liveness.js';
import { Migration20261127020000Biometrics } from './Migration20261127020000Biometrics.js';
import { Migration20261127030000CognitiveKyc } from './Migration20261127030000CognitiveKyc.js';
import { Migration20261127040000IdentityProgress } from './Migration20261127040000IdentityProgress.js';
import { Migration20261128000000Otp } from './Migration20261128000000Otp.js';
import { Migration20261128020000MobileMoney } from './Migration20261128020000MobileMoney.js';
import { Migration20261128030000Business } from './Migration20261128030000Business.js';
import { Migration20261128040000Address } from './Migration20261128040000Address.js';
import { Migration20261129070000ListPublishedOn } from './Migration20261129070000ListPublishedOn.js';
import { Migration20261201020000LivenessPhotosDeleted } from './Migration20261201020000LivenessPhotosDeleted.js';
import { Migration20261204000000VerificationFlows } from './Migration20261204000000VerificationFlows.js';
import { Migration20261206000000FaceCrowding } from './Migration20261206000000FaceCrowding.js';

/** The verification service's tables (schemas `verification` and `screening`). Append, never edit: a migration's class name is its name in the history. */
export const verificationMigrations: MigrationClass[] = [
  Migration20261122020000Screening,
  Migration20261122030000Intelligence,
  Migration20261126000000WatchlistAlertCreatedAt,
  Migration20261127000000Documents,
  Migration20261127010000Liveness,
  Migration20261127020000Biometrics,
  Migration20261127030000CognitiveKyc,
  Migration20261127040000IdentityProgress,
  Migration20261128000000Otp,
  Migration20261128020000MobileMoney,
  Migration20261128030000Business,
  Migration20261128040000Address,
  Migration20261129070000ListPublishedOn,
  Migration20261201020000LivenessPhotosDeleted,
  Migration20261204000000VerificationFlows,
  Migration20261206000000FaceCrowding,
];
