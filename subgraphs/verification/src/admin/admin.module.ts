import { KeyOperations } from '../../../../platform/crypto/key-operations.js';
import type { VerificationCapability } from '../verification.shared.js';
import { ApiClientResolver } from './api-client.resolver.js';
import { EncryptionResolver, type AdminDeps } from './encryption.resolver.js';

/** The operator's API keys and data keys (the admin secret's part of the graph). */
export const adminCapability: VerificationCapability<AdminDeps> = {
  name: 'admin',
  resolvers: [ApiClientResolver, EncryptionResolver],
  deps: (shared) => ({ keys: new KeyOperations(shared.pool, shared.keyring, shared.files) }),
};
