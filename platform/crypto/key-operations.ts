import type pg from 'pg';
import { recordAudit, type AuditActor } from '../audit/audit.js';
import type { FileService } from '../storage/file-store.js';
import type { Keyring } from './keyring.js';
import { reencryptColumns } from './reencrypt.js';

export interface Reencryption {
  organizationId: string;
  /** The data key version everything is now sealed with. */
  keyVersion: number;
  /** Sealed column values moved to it. */
  values: number;
  files: number;
}

/**
 * The operator's key operations (admin GraphQL mutations and `npm run keys`), each recorded in the
 * organization's audit trail. Nothing stops meanwhile: every version stays readable.
 */
export class KeyOperations {
  constructor(
    private readonly pool: pg.Pool,
    private readonly keyring: Keyring,
    private readonly files: FileService,
  ) {}

  /** A new data key version: new writes use it at once, on every process. Returns the version. */
  async rotate(organizationId: string, actor: AuditActor): Promise<number> {
    const version = await this.keyring.rotate(organizationId);
    // the data key's environment is the organization's: entries of key operations carry `live`
    await recordAudit(this.pool, {
      organizationId,
      environment: 'live',
      action: 'data_key.rotated',
      actor,
      resourceType: 'data_key',
      resourceId: `${organizationId}:v${version}`,
      details: { version },
    });
    return version;
  }

  /** Moves every sealed value and file of the organization to its newest data key version. */
  async reencrypt(organizationId: string, actor: AuditActor): Promise<Reencryption> {
    const keys = await this.keyring.keysOf(organizationId);
    const values = await reencryptColumns(this.pool, this.keyring, organizationId);
    const files = await this.files.reencrypt(organizationId);
    await recordAudit(this.pool, {
      organizationId,
      environment: 'live',
      action: 'data.reencrypted',
      actor,
      resourceType: 'data_key',
      resourceId: `${organizationId}:v${keys.current}`,
      details: { version: keys.current, values, files },
    });
    return { organizationId, keyVersion: keys.current, values, files };
  }
}
