import { createHash, randomBytes } from 'node:crypto';
import type { Environment, KeyService } from './principal.js';

/** Key prefixes per service and environment; risk's are fixed by its spec; `ak` keys are for every service. */
const SERVICE_PREFIX: Record<KeyService, string> = { verification: 'vk', risk: 'risk', notify: 'nk', all: 'ak' };

export function keyPrefix(service: KeyService, environment: Environment): string {
  return `${SERVICE_PREFIX[service]}_${environment}_`;
}

/**
 * The public start of a key, shown with its client (`vk_live_` + 4 characters). Counted from the
 * known prefix: the random part is base64url and may itself contain `_`.
 */
export function publicKeyPrefix(apiKey: string, service: KeyService, environment: Environment): string {
  return apiKey.slice(0, keyPrefix(service, environment).length + 4);
}

export function generateApiKey(service: KeyService, environment: Environment): string {
  return keyPrefix(service, environment) + randomBytes(24).toString('base64url');
}

/** Keys carry 192 random bits, so a fast hash is enough; only the hash is stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
