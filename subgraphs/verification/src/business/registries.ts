import type { Config } from '../../../../platform/config.js';
import type { BusinessRegistry } from './registry.js';
import { OpenCorporatesRegistry, OPENCORPORATES } from './registry-opencorporates.js';
import { SandboxRegistry, SANDBOX_REGISTRY } from './registry-sandbox.js';

/**
 * The registries of this instance, by name. Test keys always look up the sandbox registry; live
 * keys the configured one (BUSINESS_REGISTRY, the sandbox by default). The name is chosen when a
 * business verification is created and stored with it; its lookups and retries use that registry.
 */
export class BusinessRegistries {
  private readonly byName = new Map<string, BusinessRegistry>();
  private readonly live: BusinessRegistry;

  constructor(
    config: Pick<Config, 'BUSINESS_REGISTRY' | 'OPENCORPORATES_API_URL' | 'OPENCORPORATES_API_TOKEN' | 'BUSINESS_REGISTRY_TIMEOUT_MS'>,
  ) {
    const sandbox = new SandboxRegistry();
    this.byName.set(SANDBOX_REGISTRY, sandbox);
    this.live = sandbox;
    if (config.BUSINESS_REGISTRY === OPENCORPORATES) {
      this.live = new OpenCorporatesRegistry({
        apiUrl: config.OPENCORPORATES_API_URL,
        apiToken: config.OPENCORPORATES_API_TOKEN,
        timeoutMs: config.BUSINESS_REGISTRY_TIMEOUT_MS,
      });
      this.byName.set(this.live.name, this.live);
    }
  }

  /** The registry a new business verification of this environment is looked up in. */
  nameFor(environment: string): string {
    return environment === 'live' ? this.live.name : SANDBOX_REGISTRY;
  }

  /** The registry of this name; one this instance lacks (configured elsewhere, since removed) answers UNAVAILABLE. */
  get(name: string): BusinessRegistry {
    return (
      this.byName.get(name) ?? {
        name,
        lookup: async () => ({ outcome: 'UNAVAILABLE', reason: `registry ${name} is not configured on this instance` }),
      }
    );
  }
}
