import { createHash, randomBytes } from 'node:crypto';
import type { Environment, ServiceName } from './principal.js';

/** Key prefixes per service and environment; risk's are fixed by its spec. */
const SERVICE_PREFIX: Record<ServiceName, string> = { verification: 'vk', risk: 'risk', notify: 'nk' };

export function keyPrefix(service: ServiceName, environment: Environment): string {
  return `${SERVICE_PREFIX[service]}_${environment}_`;
}

export function generateApiKey(service: ServiceName, environment: Environment): string {
  return keyPrefix(service, environment) + randomBytes(24).toString('base64url');
}

/** Keys carry 192 random bits, so a fast hash is enough; only the hash is stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
