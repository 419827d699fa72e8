import { EventEmitter } from 'node:events';
import { LockMode } from '@mikro-orm/core';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../audit/audit.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiClient } from './api-client.entity.js';
import { Organization } from './organization.entity.js';
import { generateApiKey, hashApiKey, publicKeyPrefix } from './api-keys.js';
import { validatePermissions } from './permissions.js';
import { ENVIRONMENTS, KEY_SERVICES, type Environment, type KeyService } from './principal.js';
import { conflict, invalid, notFound } from '../errors.js';
import { isUuid } from '../ids.js';

export interface CreateApiClientCommand {
  name: string;
  permissions?: string[] | null;
  rateLimit?: number | null;
  service?: KeyService | null;
  environment?: Environment | null;
  organizationId?: string | null;
}

export const MAX_RATE_LIMIT = 1_000_000;
/**
 * NOTIFY channel of revocations and rotations (payload: the client id): every gateway re-checks
 * that client's graphql-ws connections at once (HTTP requests are checked against the table anyway).
 */
export const API_CLIENT_CHANGED_CHANNEL = 'api_client_changed';

/**
 * This process's own revocations and rotations, told once committed (`changed`, client id): a
 * gateway in the same process drops the client before the call that changed it has answered,
 * where the NOTIFY, which reaches every process, could arrive just after the next request.
 */
// one listener per gateway of the process (tests run several)
export const localClientChanges = new EventEmitter().setMaxListeners(0);
export const KEY_SHOWN_ONCE = 'Store this API key securely: it will not be shown again.';

export class ApiClientService {
  constructor(
    private readonly em: EntityManager,
    private readonly defaultRateLimit: number,
  ) {}

  /** Creates a client (and its organization when none is named); the key is returned only here. */
  async create(cmd: CreateApiClientCommand): Promise<{ client: ApiClient; apiKey: string }> {
    const service = cmd.service ?? 'verification';
    const environment = cmd.environment ?? 'live';
    const permissions = [...new Set(cmd.permissions ?? [])];
    const errors: string[] = [];
    if (!cmd.name.trim()) errors.push('name must not be empty');
    if (cmd.name.length > 200) errors.push('name must be at most 200 characters');
    if (!KEY_SERVICES.includes(service)) errors.push(`service must be one of: ${KEY_SERVICES.join(', ')}`);
    if (!ENVIRONMENTS.includes(environment)) errors.push(`environment must be one of: ${ENVIRONMENTS.join(', ')}`);
    if (cmd.rateLimit != null && (!Number.isInteger(cmd.rateLimit) || cmd.rateLimit < 1 || cmd.rateLimit > MAX_RATE_LIMIT)) {
      errors.push(`rateLimit must be an integer between 1 and ${MAX_RATE_LIMIT} (requests per minute)`);
    }
    if (errors.length) throw invalid(errors);
    validatePermissions(service, permissions);

    return this.em.transactional(async (em) => {
      const organizationId = await this.organizationFor(em, cmd);
      const apiKey = generateApiKey(service, environment);
      const client = em.create(ApiClient, {
        organizationId,
        name: cmd.name.trim(),
        service,
        environment,
        keyPrefix: publicKeyPrefix(apiKey, service, environment),
        keyHash: hashApiKey(apiKey),
        permissions,
        rateLimit: cmd.rateLimit ?? this.defaultRateLimit,
      });
      return { client, apiKey };
    });
  }

  /** Revokes a client's key for good (idempotent): refused from the next request on, on every gateway. */
  async revoke(id: string, actor: AuditActor = SYSTEM_ACTOR): Promise<ApiClient> {
    const revoked = await this.em.transactional(async (em) => {
      const client = await this.find(em, id);
      if (client.active) {
        client.active = false;
        await em.flush();
        await notifyChanged(em, id);
        await recordAudit(em, { ...clientAudit(client), action: 'api_client.revoked', actor });
      }
      return client;
    });
    localClientChanges.emit('changed', id);
    return revoked;
  }

  /** Replaces a client's key: the new one is returned once, the old one is refused from now on. */
  async rotate(id: string, actor: AuditActor = SYSTEM_ACTOR): Promise<{ client: ApiClient; apiKey: string }> {
    const rotated = await this.em.transactional(async (em) => {
      const client = await this.find(em, id);
      if (!client.active) throw conflict(`API client ${id} is revoked; create a new one`);
      const apiKey = generateApiKey(client.service, client.environment);
      client.keyPrefix = publicKeyPrefix(apiKey, client.service, client.environment);
      client.keyHash = hashApiKey(apiKey);
      await em.flush();
      await notifyChanged(em, id);
      await recordAudit(em, { ...clientAudit(client), action: 'api_client.rotated', actor, details: { keyPrefix: client.keyPrefix } });
      return { client, apiKey };
    });
    localClientChanges.emit('changed', id);
    return rotated;
  }

  private async find(em: EntityManager, id: string): Promise<ApiClient> {
    const client = isUuid(id) ? await em.findOne(ApiClient, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    if (!client) throw notFound('API client', id);
    return client;
  }

  /** The named organization (404 when unknown), or a new one named after the client. */
  private async organizationFor(em: EntityManager, cmd: CreateApiClientCommand): Promise<string> {
    let organizationId = cmd.organizationId;
    if (organizationId) {
      if (!isUuid(organizationId) || !(await em.findOne(Organization, { id: organizationId }))) {
        throw notFound('Organization', organizationId);
      }
    } else {
      const org = new Organization(cmd.name.trim());
      // the client row references it: insert it first
      await em.persist(org).flush();
      organizationId = org.id;
    }
    return organizationId;
  }
}

/** Sent on commit, with the change. */
async function notifyChanged(em: EntityManager, id: string): Promise<void> {
  await em.execute('select pg_notify(?, ?)', [API_CLIENT_CHANGED_CHANNEL, id]);
}

/** An API client's entry in its organization's audit trail. */
const clientAudit = (client: ApiClient) => ({
  organizationId: client.organizationId,
  environment: client.environment,
  resourceType: 'api_client',
  resourceId: client.id,
});
