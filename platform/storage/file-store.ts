import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { Tenant } from '../auth/tenant.js';
import type { Sql } from '../db/transaction.js';
import { isUuid } from '../ids.js';
import type { Keyring } from '../crypto/keyring.js';

/** Where file bytes live: a folder by default; another store (S3-like) implements the same three calls (`put` replaces atomically). */
export interface BlobStore {
  put(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}

/** Files in a folder: `<dir>/<key>`; keys are made here (uuids), never from client input. */
export class FolderBlobStore implements BlobStore {
  constructor(private readonly dir: string) {}

  /** Atomic: written aside, then renamed over the key (a reader never sees a half-written file). */
  async put(key: string, bytes: Buffer): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const draft = `${file}.${randomUUID()}.tmp`;
    await writeFile(draft, bytes);
    await rename(draft, file);
  }

  async get(key: string): Promise<Buffer | null> {
    return readFile(this.file(key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  private file(key: string): string {
    return path.join(this.dir, key.slice(0, 2), key);
  }
}

export interface StoredFile {
  id: string;
  organizationId: string;
  environment: string;
  /** What the file belongs to: `document`, `liveness`… and that record's id. */
  ownerType: string;
  ownerId: string;
  /** The user the file is about (null for files stored before it was recorded and whose owner is gone). */
  userId: string | null;
  /** What it is to its owner: `front`, `back`, `selfie`… */
  role: string;
  contentType: string;
  size: number;
  sha256: string;
  createdAt: Date;
}

const COLUMNS = `id, organization_id as "organizationId", environment, owner_type as "ownerType", owner_id as "ownerId", user_id as "userId", role,
  content_type as "contentType", size, sha256, created_at as "createdAt"`;

/**
 * Uploaded files (document images, selfies, liveness frames, address documents): bytes in a
 * BlobStore, encrypted with the organization's data key (AES-256-GCM, `key_version` says which),
 * the record in `platform.files`, always read through the tenant. Bytes are written before the
 * record, so a record never names missing bytes; bytes whose record never committed are orphans a
 * sweep can remove.
 */
export class FileService {
  constructor(
    private readonly pool: pg.Pool,
    private readonly blobs: BlobStore,
    private readonly keyring: Keyring,
  ) {}

  /** Stores `bytes` for its owner; `db` is the owner's transaction (the record commits with it). */
  async store(
    db: Sql,
    tenant: Tenant,
    file: { ownerType: string; ownerId: string; userId: string; role: string; contentType: string; bytes: Buffer },
  ): Promise<StoredFile> {
    const id = randomUUID();
    const keys = await this.keyring.keysOf(tenant.organizationId);
    await this.blobs.put(id, keys.encryptFile(file.bytes));
    const { rows } = await db.query<StoredFile>(
      `insert into platform.files (id, organization_id, environment, owner_type, owner_id, user_id, role, content_type, size, sha256, key_version)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning ${COLUMNS}`,
      [
        id,
        tenant.organizationId,
        tenant.environment,
        file.ownerType,
        file.ownerId,
        file.userId,
        file.role,
        file.contentType,
        file.bytes.length,
        createHash('sha256').update(file.bytes).digest('hex'),
        keys.current,
      ],
    );
    return rows[0];
  }

  /** The tenant's file and its bytes, or null. */
  async read(tenant: Tenant, id: string): Promise<{ file: StoredFile; bytes: Buffer } | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.pool.query<StoredFile>(
      `select ${COLUMNS} from platform.files where id = $1 and organization_id = $2 and environment = $3 and deleted_at is null`,
      [id, tenant.organizationId, tenant.environment],
    );
    if (!rows[0]) return null;
    const stored = await this.blobs.get(id);
    return stored ? { file: rows[0], bytes: await this.keyring.decryptFile(tenant.organizationId, stored) } : null;
  }

  /**
   * Re-encrypts an organization's files not yet under its newest data key (older versions, and
   * files stored before encryption). Each blob is replaced whole (`put` is atomic: a reader gets the
   * old or the new bytes, and both say their key version); a file deleted meanwhile loses them.
   */
  async reencrypt(organizationId: string): Promise<number> {
    const keys = await this.keyring.keysOf(organizationId);
    let moved = 0;
    for (;;) {
      const { rows } = await this.pool.query<{ id: string }>(
        `select id from platform.files
          where organization_id = $1 and deleted_at is null and key_version is distinct from $2 order by id limit 100`,
        [organizationId, keys.current],
      );
      if (!rows.length) return moved;
      for (const { id } of rows) {
        const stored = await this.blobs.get(id);
        if (stored) await this.blobs.put(id, keys.encryptFile(await this.keyring.decryptFile(organizationId, stored)));
        const { rowCount } = await this.pool.query(`update platform.files set key_version = $2 where id = $1 and deleted_at is null`, [
          id,
          keys.current,
        ]);
        if (rowCount) moved += 1;
        else await this.blobs.delete(id);
      }
    }
  }

  /** The files of one owner record. */
  async ofOwner(tenant: Tenant, ownerType: string, ownerId: string): Promise<StoredFile[]> {
    const { rows } = await this.pool.query<StoredFile>(
      `select ${COLUMNS} from platform.files
        where owner_type = $1 and owner_id = $2 and organization_id = $3 and environment = $4 and deleted_at is null
        order by created_at, id`,
      [ownerType, ownerId, tenant.organizationId, tenant.environment],
    );
    return rows;
  }

  /**
   * Deletes the bytes of the files of these owner records (of these roles, or all), in the caller's
   * transaction: erasure and retention. The bytes go before the commit, so a failed transaction
   * leaves records a retry deletes again, never bytes without a record. Returns how many files.
   */
  async deleteOfOwners(db: Sql, ownerType: string, ownerIds: readonly string[], roles?: readonly string[]): Promise<number> {
    if (!ownerIds.length) return 0;
    const { rows } = await db.query<{ id: string }>(
      // the record stays as the fact that there was a file, no longer naming whose it was
      `update platform.files set deleted_at = now(), user_id = null
        where owner_type = $1 and owner_id = any($2::text[]) and deleted_at is null and ($3::text[] is null or role = any($3::text[]))
        returning id`,
      [ownerType, [...ownerIds], roles ? [...roles] : null],
    );
    for (const { id } of rows) await this.blobs.delete(id);
    return rows.length;
  }

  /** Deletes a file's bytes; the record stays (without them) as the fact that there was one. */
  async delete(tenant: Tenant, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { rowCount } = await this.pool.query(
      `update platform.files set deleted_at = now(), user_id = null where id = $1 and organization_id = $2 and environment = $3 and deleted_at is null`,
      [id, tenant.organizationId, tenant.environment],
    );
    if (!rowCount) return false;
    await this.blobs.delete(id);
    return true;
  }
}
