import type { VerificationCapability } from '../verification.shared.js';
import { IpCheck } from './ip.entity.js';
import { IpFeedStore } from './ip-feeds.store.js';
import { IpResolver, IpUserFields } from './ip.resolver.js';
import { IpIntelligence, IpService, type IpDeps } from './ip.service.js';

/** IP intelligence over the imported feeds (datacenter ranges, Tor, VPN/proxy lists). */
export const ipCapability: VerificationCapability<IpDeps> = {
  name: 'ip',
  resolvers: [IpResolver, IpUserFields],
  entities: [IpCheck],
  deps: (shared) => {
    const ipFeeds = new IpFeedStore(shared.pool);
    return { ipFeeds, ipIntelligence: new IpIntelligence(ipFeeds, shared.pool) };
  },
  personalData: (em, tenant, deps) => ({ ipAnalyses: new IpService(em, tenant, deps.ipIntelligence) }),
};
