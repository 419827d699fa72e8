import type { RiskCapability } from '../risk.shared.js';
import { SanctionsResolver } from './sanctions.resolver.js';

/** The sanctions layer's screening of a transaction's parties, also asked on its own. */
export const sanctionsCapability: RiskCapability = { name: 'sanctions', resolvers: [SanctionsResolver] };
