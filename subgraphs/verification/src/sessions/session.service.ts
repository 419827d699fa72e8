import { grants, keyPermission, PERMISSIONS } from '../../../../platform/auth/permissions.js';
import type { Principal } from '../../../../platform/auth/principal.js';
import {
  DEFAULT_SESSION_TTL_SECONDS,
  MAX_SESSION_TTL_SECONDS,
  mintSessionToken,
  SESSION_SCOPES,
} from '../../../../platform/auth/session-token.js';
import { forbidden, invalid } from '../../../../platform/errors.js';

export const MIN_SESSION_TTL_SECONDS = 60;

export interface CreateSessionCommand {
  userId: string;
  scopes: string[];
  ttlSeconds?: number | null;
}

export interface Session {
  token: string;
  userId: string;
  scopes: string[];
  expiresAt: Date;
}

/**
 * Session tokens for a browser or an app: an API key mints one for one of its organization's
 * users, with scopes the key itself holds, for a short while (platform/auth/session-token.ts).
 */
export class SessionService {
  constructor(
    private readonly principal: Principal | null,
    private readonly internalSecret: string,
  ) {}

  create(cmd: CreateSessionCommand, now = Date.now()): Session {
    const key = this.principal;
    if (key?.kind !== 'client' || !key.organizationId || !key.clientId) throw forbidden('Only an API key can create session tokens');
    const scopes = [...new Set(cmd.scopes)];
    const ttl = cmd.ttlSeconds ?? DEFAULT_SESSION_TTL_SECONDS;
    const errors: string[] = [];
    if (!cmd.userId.trim()) errors.push('userId must not be empty');
    if (cmd.userId.length > 255) errors.push('userId must be at most 255 characters');
    if (!scopes.length) errors.push('scopes must name at least one scope');
    const grantable = (scope: string) =>
      key.service !== null && PERMISSIONS[key.service].includes(keyPermission(scope)) && grants(key.permissions, scope);
    const refused = scopes.filter((scope) => !(SESSION_SCOPES as readonly string[]).includes(scope) || !grantable(scope));
    if (refused.length) errors.push(`scopes must be ones this key holds among ${SESSION_SCOPES.join(', ')} (not: ${refused.join(', ')})`);
    if (!Number.isInteger(ttl) || ttl < MIN_SESSION_TTL_SECONDS || ttl > MAX_SESSION_TTL_SECONDS) {
      errors.push(`ttlSeconds must be an integer from ${MIN_SESSION_TTL_SECONDS} to ${MAX_SESSION_TTL_SECONDS}`);
    }
    if (errors.length) throw invalid(errors);

    const exp = Math.floor(now / 1000) + ttl;
    const token = mintSessionToken(
      { clientId: key.clientId, organizationId: key.organizationId, environment: key.environment, userId: cmd.userId, scopes, exp },
      this.internalSecret,
    );
    return { token, userId: cmd.userId, scopes, expiresAt: new Date(exp * 1000) };
  }
}
