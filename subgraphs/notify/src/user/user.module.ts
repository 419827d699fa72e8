import { resolveUserReference } from '../../../../platform/graphql/user.js';
import type { NotifyCapability } from '../notify.shared.js';
import { UserType } from './user.type.js';

/** `User`, from verification: notify adds what it holds of the user (its capabilities' `…UserFields`). */
export const userCapability: NotifyCapability = { name: 'user', orphanedTypes: [UserType], references: { User: resolveUserReference } };
