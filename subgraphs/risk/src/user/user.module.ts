import { resolveUserReference } from '../../../../platform/graphql/user.js';
import type { RiskCapability } from '../risk.shared.js';
import { UserType } from './user.type.js';

/** `User`, from verification: risk adds the accounts the user holds (accounts' `AccountUserResolver`). */
export const userCapability: RiskCapability = { name: 'user', orphanedTypes: [UserType], references: { User: resolveUserReference } };
