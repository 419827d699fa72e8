import type { BusinessRegistry, RegistryAnswer, RegistryQuery } from './registry.js';

export const SANDBOX_REGISTRY = 'sandbox';

/**
 * Registration numbers with a documented outcome (docs/api/business.md): the number's
 * beginning, upper or lower case. Any other number is found, Active, under the declared name.
 */
export const SANDBOX_REGISTRATION_NUMBERS = {
  NOTFOUND: 'not in the registry',
  DOWN: 'the registry is unavailable at every attempt',
  FLAKY: 'the registry is unavailable at the first attempt, and finds the company at the next',
  DISSOLVED: 'found, status Dissolved',
  MISMATCH: 'found under another name: Sandbox Mismatch Holdings Limited',
} as const;

export const SANDBOX_MISMATCH_NAME = 'Sandbox Mismatch Holdings Limited';

/** A deterministic registry: nothing leaves the machine. */
export class SandboxRegistry implements BusinessRegistry {
  readonly name = SANDBOX_REGISTRY;

  async lookup(q: RegistryQuery): Promise<RegistryAnswer> {
    const n = q.registrationNumber.toUpperCase();
    if (n.startsWith('NOTFOUND')) return { outcome: 'NOT_FOUND' };
    if (n.startsWith('DOWN')) return { outcome: 'UNAVAILABLE', reason: 'sandbox registry: unavailable (DOWN number)' };
    if (n.startsWith('FLAKY') && q.attempt === 1) {
      return { outcome: 'UNAVAILABLE', reason: 'sandbox registry: unavailable at the first attempt (FLAKY number)' };
    }
    return {
      outcome: 'FOUND',
      company: {
        legalName: n.startsWith('MISMATCH') ? SANDBOX_MISMATCH_NAME : q.businessName,
        registrationNumber: q.registrationNumber,
        dateIncorporated: '2015-03-12',
        status: n.startsWith('DISSOLVED') ? 'Dissolved' : 'Active',
        registeredAddress: `12 Sandbox Avenue, ${q.country}`,
        capital: '1000000',
        companyType: 'Private Company Limited by Shares',
        officers: [],
      },
    };
  }
}
