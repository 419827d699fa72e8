import { resolveUserReference } from '../../../../platform/graphql/user.js';
import type { VerificationCapability } from '../verification.shared.js';
import { UserResolver } from './user.resolver.js';

/** The `User` entity: each capability adds the field of its records (its `…UserFields` resolver). */
export const userCapability: VerificationCapability = {
  name: 'user',
  resolvers: [UserResolver],
  references: { User: resolveUserReference },
};
