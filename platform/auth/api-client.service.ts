import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiClient } from './api-client.entity.js';
import { Organization } from './organization.entity.js';
import { generateApiKey, hashApiKey } from './api-keys.js';
import { validatePermissions } from './permissions.js';
import { ENVIRONMENTS, SERVICES, type Environment, type ServiceName } from './principal.js';
import { invalid, notFound } from '../errors.js';
import { isUuid } from '../ids.js';

export interface CreateApiClientCommand {
  name: string;
  permissions?: string[] | null;
  rateLimit?: number | null;
  service?: ServiceName | null;
  environment?: Environment | null;
  organizationId?: string | null;
}

export const MAX_RATE_LIMIT = 1_000_000;
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
    if (!SERVICES.includes(service)) errors.push(`service must be one of: ${SERVICES.join(', ')}`);
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
        keyPrefix: apiKey.slice(0, apiKey.lastIndexOf('_') + 5),
        keyHash: hashApiKey(apiKey),
        permissions,
        rateLimit: cmd.rateLimit ?? this.defaultRateLimit,
      });
      return { client, apiKey };
    });
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
