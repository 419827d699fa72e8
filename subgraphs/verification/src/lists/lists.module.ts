import type { VerificationCapability } from '../verification.shared.js';
import { ListSnapshot } from './lists.entity.js';
import { ListsResolver } from './lists.resolver.js';

/** The sanctions and PEP lists loaded, and their imports. */
export const listsCapability: VerificationCapability = {
  name: 'lists',
  resolvers: [ListsResolver],
  entities: [ListSnapshot],
};
