import { createSecretKey, randomBytes } from 'node:crypto';
import { decrypt, encrypt, KEY_BYTES } from './aead.js';

describe('AES-256-GCM messages', () => {
  const key = createSecretKey(randomBytes(KEY_BYTES));

  it('gives every message its own nonce, across blocks of pooled random bytes, and each opens to its plaintext', () => {
    const plaintext = Buffer.from('"1984-02-29"');
    const messages = Array.from({ length: 1_000 }, () => encrypt(key, plaintext, 'org'));
    expect(new Set(messages.map((m) => m.subarray(0, 12).toString('hex'))).size).toBe(1_000);
    for (const m of messages) expect(decrypt(key, m, 'org')).toEqual(plaintext);
  });

  it('refuses another context or a changed byte', () => {
    const m = encrypt(key, Buffer.from('secret'), 'org-a');
    expect(() => decrypt(key, m, 'org-b')).toThrow();
    const changed = Buffer.from(m);
    changed[changed.length - 1] ^= 1;
    expect(() => decrypt(key, changed, 'org-a')).toThrow();
  });
});
