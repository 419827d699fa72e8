import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** AES-256-GCM: a 12-byte random nonce per message, a 16-byte tag; `aad` binds the ciphertext to its context. */
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;

/** `iv ‖ tag ‖ ciphertext` of `plaintext` under `key`. */
export function encrypt(key: Buffer, plaintext: Buffer, aad?: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  if (aad) cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The plaintext of `encrypt`'s output; throws when the key, the context or a single byte differs. */
export function decrypt(key: Buffer, message: Buffer, aad?: string): Buffer {
  if (message.length < IV_BYTES + TAG_BYTES) throw new Error('ciphertext too short');
  const decipher = createDecipheriv(ALGORITHM, key, message.subarray(0, IV_BYTES));
  if (aad) decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(message.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(message.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}
