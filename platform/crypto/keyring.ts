import { randomBytes, createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import type pg from 'pg';
import { inTransaction } from '../db/transaction.js';
import { decrypt, encrypt, KEY_BYTES } from './aead.js';
import type { KeyProvider } from './key-provider.js';

/** Sealed values are text: `enc:v<data key version>:<base64 of iv ‖ tag ‖ ciphertext>`. */
const SEALED = /^enc:v(\d+):([A-Za-z0-9+/=]+)$/;
/** The data key version a sealed value was written with. */
export const sealedVersion = (value: string): number => Number(SEALED.exec(value)?.[1] ?? NaN);

/** Encrypted files start with this header, then the data key version (uint32 BE), then `iv ‖ tag ‖ ciphertext`. */
const FILE_MAGIC = Buffer.from('AFENC1');

/** NOTIFY channel: an organization's data keys changed (a rotation): every process drops its copy. */
export const DATA_KEYS_CHANGED_CHANNEL = 'data_keys_changed';

const CACHE_MS = 5 * 60_000;

const dataKeyContext = (organizationId: string, version: number) => `data-key|${organizationId}|${version}`;
const BLIND_INDEX_CONTEXT = 'blind-index-key';

/** One organization's unwrapped data keys: the newest encrypts, every version decrypts. */
export class OrganizationKeys {
  constructor(
    readonly organizationId: string,
    private readonly versions: Map<number, KeyObject>,
    readonly current: number,
  ) {}

  has(version: number): boolean {
    return this.versions.has(version);
  }

  seal(plaintext: string | Buffer): string {
    const bytes = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext;
    return `enc:v${this.current}:${encrypt(this.key(this.current), bytes, this.organizationId).toString('base64')}`;
  }

  open(sealed: string): Buffer {
    const match = SEALED.exec(sealed);
    if (!match) throw new Error('not a sealed value');
    return decrypt(this.key(Number(match[1])), Buffer.from(match[2], 'base64'), this.organizationId);
  }

  encryptFile(bytes: Buffer): Buffer {
    const version = Buffer.alloc(4);
    version.writeUInt32BE(this.current);
    return Buffer.concat([FILE_MAGIC, version, encrypt(this.key(this.current), bytes, `file|${this.organizationId}`)]);
  }

  decryptFile(stored: Buffer): Buffer {
    return decrypt(this.key(fileVersion(stored)!), stored.subarray(FILE_MAGIC.length + 4), `file|${this.organizationId}`);
  }

  private key(version: number): KeyObject {
    const key = this.versions.get(version);
    if (!key) throw new UnknownKeyVersionError(this.organizationId, version);
    return key;
  }
}

/** The data key version of an encrypted file's bytes; null for bytes stored before encryption. */
export function fileVersion(stored: Buffer): number | null {
  if (stored.length < FILE_MAGIC.length + 4 || !stored.subarray(0, FILE_MAGIC.length).equals(FILE_MAGIC)) return null;
  return stored.readUInt32BE(FILE_MAGIC.length);
}

export class UnknownKeyVersionError extends Error {
  constructor(organizationId: string, version: number) {
    super(`organization ${organizationId} has no data key version ${version}`);
  }
}

/**
 * Envelope encryption: a data key per organization (AES-256, versioned), stored in
 * `platform.data_keys` wrapped by the master key of a KeyProvider, unwrapped once per process and
 * kept in memory (dropped on a rotation's NOTIFY, and after 5 minutes). New values are sealed
 * with the newest version; every version stays readable until a re-encryption moved everything
 * to the newest. Blind indexes (HMAC-SHA256 under one platform key, also wrapped) let a column be
 * searched by equality without holding the value.
 */
export class Keyring {
  private readonly organizations = new Map<string, { at: number; keys: Promise<OrganizationKeys> }>();
  private indexKey: Promise<Buffer> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    readonly provider: KeyProvider,
  ) {}

  /** The organization's keys, made on first use (version 1). */
  keysOf(organizationId: string): Promise<OrganizationKeys> {
    const cached = this.organizations.get(organizationId);
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.keys;
    const keys = this.load(organizationId);
    this.organizations.set(organizationId, { at: Date.now(), keys });
    keys.catch(() => this.organizations.delete(organizationId));
    return keys;
  }

  /** Forgets an organization's keys (another process rotated them), or every organization's. */
  forget(organizationId?: string): void {
    if (organizationId) this.organizations.delete(organizationId);
    else this.organizations.clear();
  }

  async seal(organizationId: string, plaintext: string | Buffer): Promise<string> {
    return (await this.keysOf(organizationId)).seal(plaintext);
  }

  /** Opens a sealed value; a version this process has not seen yet (a rotation elsewhere) is loaded. */
  async open(organizationId: string, sealed: string): Promise<Buffer> {
    return (await this.keysFor(organizationId, sealedVersion(sealed))).open(sealed);
  }

  async openText(organizationId: string, sealed: string): Promise<string> {
    return (await this.open(organizationId, sealed)).toString('utf8');
  }

  async sealJson(organizationId: string, value: unknown): Promise<string> {
    return this.seal(organizationId, JSON.stringify(value));
  }

  async openJson<T>(organizationId: string, sealed: string): Promise<T> {
    return JSON.parse(await this.openText(organizationId, sealed)) as T;
  }

  /** A file's bytes as stored: decrypted, or returned as they are when stored before encryption. */
  async decryptFile(organizationId: string, stored: Buffer): Promise<Buffer> {
    const version = fileVersion(stored);
    if (version === null) return stored;
    return (await this.keysFor(organizationId, version)).decryptFile(stored);
  }

  /**
   * A keyed digest of `value` for equality search: the same value in the same `scope` always gives
   * the same index, and nothing about the value can be learnt from it without the key. Scopes
   * keep indexes of different columns (and organizations) apart.
   */
  async blindIndex(scope: string, value: string): Promise<string> {
    return createHmac('sha256', await this.blindIndexKey())
      .update(scope)
      .update('\u0000')
      .update(value)
      .digest('base64url');
  }

  /**
   * A new data key version for the organization: new values are sealed with it at once (here, and
   * in other processes within moments: NOTIFY), older versions stay readable. Returns the version.
   */
  async rotate(organizationId: string): Promise<number> {
    const version = await inTransaction(this.pool, async (client) => {
      // one rotation at a time per organization
      await client.query(`select pg_advisory_xact_lock(hashtext('data_keys:' || $1))`, [organizationId]);
      const { rows } = await client.query<{ v: number | null }>(
        `select max(version) as v from platform.data_keys where organization_id = $1`,
        [organizationId],
      );
      const next = (rows[0].v ?? 0) + 1;
      await this.insertKey(client, organizationId, next);
      await client.query(`select pg_notify($1, $2)`, [DATA_KEYS_CHANGED_CHANNEL, organizationId]);
      return next;
    });
    this.forget(organizationId);
    return version;
  }

  /**
   * Master key rotation: every data key (and the blind-index key) wrapped by another master key
   * than the provider's current one is unwrapped and wrapped again by the current one. The data
   * keys themselves do not change, so nothing else is re-encrypted and nothing stops.
   */
  async rewrap(): Promise<{ rewrapped: number }> {
    let rewrapped = 0;
    for (;;) {
      const done = await inTransaction(this.pool, async (client) => {
        const { rows } = await client.query<{ organization_id: string; version: number; wrapped_key: Buffer; master_key_id: string }>(
          `select organization_id, version, wrapped_key, master_key_id from platform.data_keys
            where master_key_id <> $1 limit 100 for update skip locked`,
          [this.provider.currentKeyId],
        );
        for (const row of rows) {
          const context = dataKeyContext(row.organization_id, row.version);
          const key = await this.provider.unwrap(row.wrapped_key, row.master_key_id, context);
          const { keyId, wrapped } = await this.provider.wrap(key, context);
          await client.query(
            `update platform.data_keys set wrapped_key = $3, master_key_id = $4, rewrapped_at = now() where organization_id = $1 and version = $2`,
            [row.organization_id, row.version, wrapped, keyId],
          );
        }
        return rows.length;
      });
      rewrapped += done;
      if (!done) break;
    }
    const { rows } = await this.pool.query<{ wrapped_key: Buffer; master_key_id: string }>(
      `select wrapped_key, master_key_id from platform.blind_index_key where id = 1 and master_key_id <> $1`,
      [this.provider.currentKeyId],
    );
    if (rows[0]) {
      const key = await this.provider.unwrap(rows[0].wrapped_key, rows[0].master_key_id, BLIND_INDEX_CONTEXT);
      const { keyId, wrapped } = await this.provider.wrap(key, BLIND_INDEX_CONTEXT);
      await this.pool.query(`update platform.blind_index_key set wrapped_key = $1, master_key_id = $2 where id = 1`, [wrapped, keyId]);
      rewrapped += 1;
    }
    return { rewrapped };
  }

  /** How many keys are wrapped by each master key (what a rotation still has to rewrap). */
  async masterKeyUse(): Promise<Array<{ masterKeyId: string; keys: number }>> {
    const { rows } = await this.pool.query<{ masterKeyId: string; keys: number }>(
      `select master_key_id as "masterKeyId", count(*)::int as keys from
        (select master_key_id from platform.data_keys union all select master_key_id from platform.blind_index_key) k
       group by master_key_id order by master_key_id`,
    );
    return rows;
  }

  /** The organization's keys, reloaded when they lack `version` (a rotation another process made). */
  private async keysFor(organizationId: string, version: number): Promise<OrganizationKeys> {
    const keys = await this.keysOf(organizationId);
    if (keys.has(version)) return keys;
    this.forget(organizationId);
    return this.keysOf(organizationId);
  }

  private async load(organizationId: string): Promise<OrganizationKeys> {
    let { rows } = await this.selectKeys(organizationId);
    if (!rows.length) {
      // first use: version 1; a process racing us loses quietly and both read the winner's key
      await this.insertKey(this.pool, organizationId, 1);
      ({ rows } = await this.selectKeys(organizationId));
    }
    const versions = new Map<number, KeyObject>();
    for (const row of rows) {
      const key = await this.provider.unwrap(row.wrapped_key, row.master_key_id, dataKeyContext(organizationId, row.version));
      // a KeyObject holds its own copy, imported once (raw bytes are imported again on every use)
      versions.set(row.version, createSecretKey(key));
      key.fill(0);
    }
    return new OrganizationKeys(organizationId, versions, Math.max(...versions.keys()));
  }

  private selectKeys(organizationId: string) {
    return this.pool.query<{ version: number; wrapped_key: Buffer; master_key_id: string }>(
      `select version, wrapped_key, master_key_id from platform.data_keys where organization_id = $1 order by version`,
      [organizationId],
    );
  }

  private async insertKey(db: pg.Pool | pg.PoolClient, organizationId: string, version: number): Promise<void> {
    const { keyId, wrapped } = await this.provider.wrap(randomBytes(KEY_BYTES), dataKeyContext(organizationId, version));
    await db.query(
      `insert into platform.data_keys (organization_id, version, wrapped_key, master_key_id) values ($1, $2, $3, $4)
       on conflict do nothing`,
      [organizationId, version, wrapped, keyId],
    );
  }

  private blindIndexKey(): Promise<Buffer> {
    this.indexKey ??= (async () => {
      const select = () =>
        this.pool.query<{ wrapped_key: Buffer; master_key_id: string }>(
          `select wrapped_key, master_key_id from platform.blind_index_key where id = 1`,
        );
      let { rows } = await select();
      if (!rows[0]) {
        const { keyId, wrapped } = await this.provider.wrap(randomBytes(KEY_BYTES), BLIND_INDEX_CONTEXT);
        await this.pool.query(
          `insert into platform.blind_index_key (id, wrapped_key, master_key_id) values (1, $1, $2) on conflict do nothing`,
          [wrapped, keyId],
        );
        ({ rows } = await select());
      }
      return this.provider.unwrap(rows[0].wrapped_key, rows[0].master_key_id, BLIND_INDEX_CONTEXT);
    })();
    this.indexKey.catch(() => (this.indexKey = null));
    return this.indexKey;
  }
}
