/**
 * The sanctions layer: the sender's and receiver's names (metadata.sender_name /
 * metadata.receiver_name, else the account's profile) screened in-process with the screening
 * engine. The engine is reached through this structural interface, so the layer is testable
 * with any engine and reports "nothing checked" when none is loaded.
 */

export type ScreeningKind = 'SANCTIONS' | 'PEP' | 'ADVERSE_MEDIA' | 'LAW_ENFORCEMENT';

export interface ScreeningEngineLike {
  search(q: {
    fullName: string;
    dateOfBirth?: string;
    nationality?: string;
    kinds?: ScreeningKind[];
    threshold?: number;
    limit?: number;
  }): Array<{
    source: string;
    kind: string;
    externalId: string;
    entityType?: string;
    primaryName: string;
    matchedName: string;
    score: number;
    programs?: string[];
    addedDate?: string;
    listVersion: string;
    explanation?: unknown;
  }>;
  versions(): Record<string, string>;
}

export interface Party {
  role: 'sender' | 'receiver';
  account: string;
  name: string;
  dateOfBirth?: string | null;
  nationality?: string | null;
  /** Where the name came from. */
  from: 'metadata' | 'profile';
}

export interface SanctionsHit {
  party: 'sender' | 'receiver';
  account: string;
  name: string;
  source: string;
  kind: string;
  externalId: string;
  /** Absent in hits recorded before it was kept. */
  entityType?: string;
  primaryName: string;
  matchedName: string;
  score: number;
  /** Absent in hits recorded before it was kept. */
  programs?: string[];
  addedDate?: string | null;
  listVersion: string;
}

export interface SanctionsOutcome {
  hits: SanctionsHit[];
  /** Distinct lists consulted (0 when no engine is loaded or no name was available). */
  listsChecked: number;
  partiesScreened: number;
  /** Layer score 0–100: the strongest hit, weighted by its list kind. */
  score: number;
  /** The most severe action the hits call for. */
  action: 'allow' | 'review' | 'block';
  /** Why nothing was checked, when nothing was. */
  note?: string;
}

/** A hit's contribution: a sanctions match is decisive, a PEP is context. */
export const KIND_WEIGHTS: Record<string, number> = { SANCTIONS: 100, LAW_ENFORCEMENT: 70, PEP: 40, ADVERSE_MEDIA: 35 };
const KIND_ACTIONS: Record<string, SanctionsOutcome['action']> = {
  SANCTIONS: 'block',
  LAW_ENFORCEMENT: 'review',
  PEP: 'review',
  ADVERSE_MEDIA: 'review',
};
const SEVERITY = { allow: 0, review: 1, block: 2 } as const;
const HITS_PER_PARTY = 5;

type EngineHit = ReturnType<ScreeningEngineLike['search']>[number];

/** Screened names kept per list versions (customers recur; a new list version empties it). */
const CACHE_SIZE = 10_000;

export class SanctionsLayer {
  private cache = new Map<string, EngineHit[]>();
  private cacheVersions = '';

  constructor(
    private engine: ScreeningEngineLike | null,
    private readonly threshold: number,
    private readonly missing = 'screening engine not loaded',
  ) {}

  /** engine.search through a bounded LRU keyed by the query, valid for one set of list versions (`signature`, their JSON). */
  private search(engine: ScreeningEngineLike, signature: string, party: Party): EngineHit[] {
    if (signature !== this.cacheVersions) {
      this.cache = new Map();
      this.cacheVersions = signature;
    }
    const key = `${party.name.trim().toLowerCase()}\u0000${party.dateOfBirth ?? ''}\u0000${party.nationality ?? ''}`;
    const cached = this.cache.get(key);
    if (cached) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const found = engine.search({
      fullName: party.name,
      dateOfBirth: party.dateOfBirth ?? undefined,
      nationality: party.nationality ?? undefined,
      threshold: this.threshold,
      limit: HITS_PER_PARTY,
    });
    this.cache.set(key, found);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return found;
  }

  get available(): boolean {
    return this.engine !== null;
  }

  setEngine(engine: ScreeningEngineLike | null): void {
    this.engine = engine;
  }

  /** Loaded lists as `source@version`. */
  lists(): string[] {
    return this.engine ? Object.entries(this.engine.versions()).map(([source, version]) => `${source}@${version}`) : [];
  }

  screen(parties: Party[]): SanctionsOutcome {
    if (!this.engine) return { hits: [], listsChecked: 0, partiesScreened: 0, score: 0, action: 'allow', note: this.missing };
    if (!parties.length)
      return { hits: [], listsChecked: 0, partiesScreened: 0, score: 0, action: 'allow', note: 'no sender or receiver name available' };
    const hits: SanctionsHit[] = [];
    const versions = this.engine.versions();
    const signature = JSON.stringify(versions);
    for (const party of parties) {
      for (const h of this.search(this.engine, signature, party)) {
        hits.push({
          party: party.role,
          account: party.account,
          name: party.name,
          source: h.source,
          kind: h.kind,
          externalId: h.externalId,
          entityType: h.entityType ?? 'UNKNOWN',
          primaryName: h.primaryName,
          matchedName: h.matchedName,
          score: Math.round(h.score * 1000) / 1000,
          programs: h.programs ?? [],
          addedDate: h.addedDate ?? null,
          listVersion: h.listVersion,
        });
      }
    }
    let score = 0;
    let action: SanctionsOutcome['action'] = 'allow';
    for (const h of hits) {
      score = Math.max(score, (KIND_WEIGHTS[h.kind] ?? 35) * h.score);
      const a = KIND_ACTIONS[h.kind] ?? 'review';
      if (SEVERITY[a] > SEVERITY[action]) action = a;
    }
    return {
      hits,
      listsChecked: Object.keys(versions).length,
      partiesScreened: parties.length,
      score: Math.round(score * 10) / 10,
      action,
    };
  }
}
