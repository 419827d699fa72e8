import { createCipheriv, createDecipheriv, randomBytes, type CipherKey } from 'node:crypto';

/** AES-256-GCM: a 12-byte random nonce per message, a 16-byte tag; `aad` binds the ciphertext to its context. */
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;

/** Random nonces, taken from a block of the system's random bytes (one call per 256 messages, not one each). */
const NONCES_PER_BLOCK = 256;
let nonces = Buffer.alloc(0);
let nextNonce = 0;
function nonce(): Buffer {
  if (nextNonce + IV_BYTES > nonces.length) {
    // a new block each time: nonces handed out keep their bytes
    nonces = randomBytes(IV_BYTES * NONCES_PER_BLOCK);
    nextNonce = 0;
  }
  return nonces.subarray(nextNonce, (nextNonce += IV_BYTES));
}

/**
 * `iv ‖ tag ‖ ciphertext` of `plaintext` under `key`. A key used often is best given as a KeyObject
 * (`createSecretKey`): raw bytes are imported again on every call (about three times the cost of a
 * short value's encryption).
 */
export function encrypt(key: CipherKey, plaintext: Buffer, aad?: string): Buffer {
  const iv = nonce();
  const cipher = createCipheriv(ALGORITHM, key, iv);
  if (aad) cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The plaintext of `encrypt`'s output; throws when the key, the context or a single byte differs. */
export function decrypt(key: CipherKey, message: Buffer, aad?: string): Buffer {
  if (message.length < IV_BYTES + TAG_BYTES) throw new Error('ciphertext too short');
  const decipher = createDecipheriv(ALGORITHM, key, message.subarray(0, IV_BYTES));
  if (aad) decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(message.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(message.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}
