import { createHash } from 'node:crypto';
import { decrypt, encrypt, KEY_BYTES } from './aead.js';

/**
 * Wraps and unwraps data keys with a master key that never leaves it. The local provider holds the
 * master keys from the environment; a KMS (AWS KMS Encrypt/Decrypt, GCP Cloud KMS, Vault transit)
 * implements the same two calls, passing `context` as its encryption context / additional data.
 */
export interface KeyProvider {
  /** The master key new wraps use (stored beside each wrapped key, so a rotation knows what to rewrap). */
  readonly currentKeyId: string;
  wrap(dataKey: Buffer, context: string): Promise<{ keyId: string; wrapped: Buffer }>;
  /** Throws when `keyId` is not a master key this provider holds. */
  unwrap(wrapped: Buffer, keyId: string, context: string): Promise<Buffer>;
}

/** A master key given as 32 bytes in base64 (44 characters) or hex (64). */
export function parseMasterKey(text: string): Buffer {
  const value = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== KEY_BYTES) throw new Error('a master key is 32 bytes, in base64 (44 characters) or hex (64 characters)');
  return key;
}

/** A master key's name: a digest of it (never the key), so logs and rows can say which one wrapped a key. */
export const masterKeyId = (key: Buffer): string =>
  'local:' + createHash('sha256').update('master-key-id').update(key).digest('hex').slice(0, 16);

/** Master keys from the environment: the current one wraps; previous ones still unwrap until a rewrap retires them. */
export class LocalKeyProvider implements KeyProvider {
  readonly currentKeyId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(current: Buffer, previous: Buffer[] = []) {
    this.currentKeyId = masterKeyId(current);
    for (const key of [current, ...previous]) this.keys.set(masterKeyId(key), key);
  }

  async wrap(dataKey: Buffer, context: string): Promise<{ keyId: string; wrapped: Buffer }> {
    return { keyId: this.currentKeyId, wrapped: encrypt(this.keys.get(this.currentKeyId)!, dataKey, context) };
  }

  async unwrap(wrapped: Buffer, keyId: string, context: string): Promise<Buffer> {
    const key = this.keys.get(keyId);
    if (!key) throw new MissingMasterKeyError(keyId);
    return decrypt(key, wrapped, context);
  }
}

export class MissingMasterKeyError extends Error {
  constructor(readonly keyId: string) {
    super(`a data key is wrapped by master key ${keyId}, which is neither ENCRYPTION_MASTER_KEY nor in ENCRYPTION_PREVIOUS_MASTER_KEYS`);
  }
}
