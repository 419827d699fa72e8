import type { Environment, KeyService } from './principal.js';

export interface ClientRow {
  id: string;
  organization_id: string;
  service: KeyService;
  environment: Environment;
  permissions: string[];
  rate_limit: number;
}

/** How a client is looked up: by its key's hash (API keys) or by id (the minting key of a session token). */
export type ClientLookup = { keyHash: string } | { id: string };

export const MAX_CACHED_CLIENTS = 10_000;

/**
 * Active API clients by key hash and by id, kept in memory so a known key costs no database round
 * trip. Trusted only while the change notifications are heard (`trust()` once LISTEN is active,
 * `distrust()` when its connection drops: every lookup then goes to the database); a revoked or
 * rotated client is dropped when its notification arrives. A lookup that started before a drop
 * does not store its (possibly stale) row. Unknown keys are not remembered (a new key is found at
 * once; a guessed one costs what it did).
 */
export class ApiClientCache {
  private readonly rows = new Map<string, ClientRow>();
  /** Bumped by every drop: a lookup older than the last drop does not store its row. */
  private generation = 0;
  private trusted = false;

  constructor(
    private readonly load: (lookup: ClientLookup) => Promise<ClientRow | undefined>,
    private readonly max = MAX_CACHED_CLIENTS,
  ) {}

  async find(lookup: ClientLookup): Promise<ClientRow | undefined> {
    const name = 'keyHash' in lookup ? `key:${lookup.keyHash}` : `id:${lookup.id}`;
    if (this.trusted) {
      const hit = this.rows.get(name);
      if (hit) return hit;
    }
    const generation = this.generation;
    const row = await this.load(lookup);
    if (row && this.trusted && generation === this.generation) {
      // the oldest entry makes room (a Map iterates in insertion order)
      if (this.rows.size >= this.max) this.rows.delete(this.rows.keys().next().value!);
      this.rows.set(name, row);
    }
    return row;
  }

  /** A client changed (revoked, rotated): its next request reads the database. */
  drop(clientId: string): void {
    this.generation += 1;
    for (const [name, row] of this.rows) if (row.id === clientId) this.rows.delete(name);
  }

  /** Change notifications are heard (again): cache from now on, starting empty. */
  trust(): void {
    this.clear();
    this.trusted = true;
  }

  /** Change notifications may be missed: read the database every time until `trust()`. */
  distrust(): void {
    this.trusted = false;
    this.clear();
  }

  private clear(): void {
    this.generation += 1;
    this.rows.clear();
  }
}
