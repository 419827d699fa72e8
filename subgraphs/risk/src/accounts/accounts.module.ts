import type { RiskCapability } from '../risk.shared.js';
import { AccountResolver, AccountUserResolver, resolveAccountReference } from './account.resolver.js';

/** The accounts transactions name, and their profiles (the user who holds one, the name screened). */
export const accountsCapability: RiskCapability = {
  name: 'accounts',
  resolvers: [AccountResolver, AccountUserResolver],
  references: { RiskAccount: resolveAccountReference },
};
