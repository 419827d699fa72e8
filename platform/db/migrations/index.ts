import { Migration20261122000000Init } from './Migration20261122000000Init.js';
import { Migration20261122010000Notify } from './Migration20261122010000Notify.js';
import { Migration20261122020000Screening } from './Migration20261122020000Screening.js';
import { Migration20261122030000Intelligence } from './Migration20261122030000Intelligence.js';
import { Migration20261122040000Risk } from './Migration20261122040000Risk.js';
import { Migration20261124000000Deliveries } from './Migration20261124000000Deliveries.js';
import { Migration20261125000000KeyPrefixes } from './Migration20261125000000KeyPrefixes.js';
import { Migration20261125010000RiskAccountUser } from './Migration20261125010000RiskAccountUser.js';
import { Migration20261125020000AllServicesKeys } from './Migration20261125020000AllServicesKeys.js';
import { Migration20261126000000WatchlistAlertCreatedAt } from './Migration20261126000000WatchlistAlertCreatedAt.js';
import { Migration20261126010000Files } from './Migration20261126010000Files.js';
import { Migration20261127000000Documents } from './Migration20261127000000Documents.js';
import { Migration20261127010000Liveness } from './Migration20261127010000Liveness.js';
import { Migration20261127020000Biometrics } from './Migration20261127020000Biometrics.js';
import { Migration20261127030000CognitiveKyc } from './Migration20261127030000CognitiveKyc.js';
import { Migration20261127040000IdentityProgress } from './Migration20261127040000IdentityProgress.js';
import { Migration20261128000000Otp } from './Migration20261128000000Otp.js';
import { Migration20261128020000MobileMoney } from './Migration20261128020000MobileMoney.js';
import { Migration20261128030000Business } from './Migration20261128030000Business.js';
import { Migration20261128040000Address } from './Migration20261128040000Address.js';
import { Migration20261128050000NotifyChannels } from './Migration20261128050000NotifyChannels.js';
import { Migration20261129070000ListPublishedOn } from './Migration20261129070000ListPublishedOn.js';

/** The one ordered migration history of the database (all schemas). Append, never edit. */
export const migrations = [
  { name: 'Migration20261122000000Init', class: Migration20261122000000Init },
  { name: 'Migration20261122010000Notify', class: Migration20261122010000Notify },
  { name: 'Migration20261122020000Screening', class: Migration20261122020000Screening },
  { name: 'Migration20261122030000Intelligence', class: Migration20261122030000Intelligence },
  { name: 'Migration20261122040000Risk', class: Migration20261122040000Risk },
  { name: 'Migration20261124000000Deliveries', class: Migration20261124000000Deliveries },
  { name: 'Migration20261125000000KeyPrefixes', class: Migration20261125000000KeyPrefixes },
  { name: 'Migration20261125010000RiskAccountUser', class: Migration20261125010000RiskAccountUser },
  { name: 'Migration20261125020000AllServicesKeys', class: Migration20261125020000AllServicesKeys },
  { name: 'Migration20261126000000WatchlistAlertCreatedAt', class: Migration20261126000000WatchlistAlertCreatedAt },
  { name: 'Migration20261126010000Files', class: Migration20261126010000Files },
  { name: 'Migration20261127000000Documents', class: Migration20261127000000Documents },
  { name: 'Migration20261127010000Liveness', class: Migration20261127010000Liveness },
  { name: 'Migration20261127020000Biometrics', class: Migration20261127020000Biometrics },
  { name: 'Migration20261127030000CognitiveKyc', class: Migration20261127030000CognitiveKyc },
  { name: 'Migration20261127040000IdentityProgress', class: Migration20261127040000IdentityProgress },
  { name: 'Migration20261128000000Otp', class: Migration20261128000000Otp },
  { name: 'Migration20261128020000MobileMoney', class: Migration20261128020000MobileMoney },
  { name: 'Migration20261128030000Business', class: Migration20261128030000Business },
  { name: 'Migration20261128040000Address', class: Migration20261128040000Address },
  { name: 'Migration20261128050000NotifyChannels', class: Migration20261128050000NotifyChannels },
  { name: 'Migration20261129070000ListPublishedOn', class: Migration20261129070000ListPublishedOn },
];
