import type { VerificationCapability } from '../verification.shared.js';
import { WatchlistAlert, WatchlistMatch, WatchlistSubscription } from './watchlist.entity.js';
import { WatchlistAlertResolver, WatchlistSubscriptionResolver, WatchlistUserFields } from './watchlist.resolver.js';
import { WatchlistService, type WatchlistDeps } from './watchlist.service.js';
import { WatchlistWorker } from './watchlist.worker.js';

/** Ongoing monitoring of people against the lists, and its alerts. */
export const watchlistCapability: VerificationCapability<{ watchlist: WatchlistDeps }> = {
  name: 'watchlist',
  resolvers: [WatchlistSubscriptionResolver, WatchlistAlertResolver, WatchlistUserFields],
  entities: [WatchlistSubscription, WatchlistAlert, WatchlistMatch],
  webhookEvents: ['watchlist.alert', 'watchlist.clear'],
  deps: (shared) => ({
    watchlist: {
      screening: shared.screening,
      scanIntervalMs: shared.config.WATCHLIST_SCAN_INTERVAL_HOURS * 3_600_000,
      matchThreshold: shared.config.WATCHLIST_MATCH_THRESHOLD,
    },
  }),
  personalData: (em, tenant, deps) => ({ watchlist: new WatchlistService(em, tenant, deps.watchlist) }),
  workers: (deps) => [
    new WatchlistWorker({
      orm: deps.orm,
      screening: deps.screening,
      catalog: deps.amlCatalog,
      logger: deps.logger.child({ component: 'watchlist' }),
      deps: deps.watchlist,
      pollMs: deps.config.WATCHLIST_POLL_SECONDS * 1000,
    }),
  ],
};
