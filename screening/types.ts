/** The shapes every importer produces and every caller of the matching engine sees. */

export type ListKind = 'SANCTIONS' | 'PEP' | 'ADVERSE_MEDIA' | 'LAW_ENFORCEMENT';
export const LIST_KINDS: readonly ListKind[] = ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA', 'LAW_ENFORCEMENT'];

export type EntityType = 'INDIVIDUAL' | 'ENTITY' | 'VESSEL' | 'AIRCRAFT' | 'UNKNOWN';
export const ENTITY_TYPES: readonly EntityType[] = ['INDIVIDUAL', 'ENTITY', 'VESSEL', 'AIRCRAFT', 'UNKNOWN'];

export type NameType = 'PRIMARY' | 'ALIAS' | 'WEAK_ALIAS' | 'ORIGINAL_SCRIPT';

export interface ListEntry {
  /** 'OFAC_SDN' | 'OFAC_CONSOLIDATED' | 'UN_SC' | 'EU_FSF' | 'UK_OFSI' | 'CUSTOM_<NAME>' */
  source: string;
  kind: ListKind;
  /** The source's own identifier (OFAC ent_num, UN DATAID/REFERENCE, EU logicalId, UK Group ID…). */
  externalId: string;
  entityType: EntityType;
  names: { full: string; type: NameType }[];
  /** YYYY-MM-DD, YYYY-MM or YYYY (as precise as the source says). */
  datesOfBirth: string[];
  /** ISO 3166-1 alpha-2 when known, else the source's text. */
  nationalities: string[];
  documents: { type: string; number: string; country?: string }[];
  programs: string[];
  remarks?: string;
  /** YYYY-MM-DD */
  addedDate?: string;
  /** Addresses the list gives (OFAC add.csv / addressList, UN, EU, UK). */
  addresses?: { text: string; country?: string }[];
}

export interface ScreeningQuery {
  fullName: string;
  dateOfBirth?: string;
  nationality?: string;
  documentNumber?: string;
  entityType?: 'INDIVIDUAL' | 'ENTITY';
  kinds?: ListKind[];
  sources?: string[];
  /** 0–1, default 0.85 */
  threshold?: number;
  /** default 10 */
  limit?: number;
}

export type TokenMatchHow = 'exact' | 'equivalent' | 'phonetic' | 'fuzzy' | 'initial' | 'missing';

/**
 * The named rules of the name matcher (screening/README.md, "Rules"): normalisations that made two
 * names comparable (factor 1) and evidence that lowered a score (factor < 1).
 */
export type MatchRule =
  | 'legalForm'
  | 'legalFormDiffers'
  | 'entityQualifier'
  | 'numberWords'
  | 'numberDiffers'
  | 'lookalike'
  | 'acronym'
  | 'transliteration'
  | 'syllableDiffers'
  | 'nasab'
  | 'nickname'
  | 'orderSwap';
export const MATCH_RULES: readonly MatchRule[] = [
  'legalForm',
  'legalFormDiffers',
  'entityQualifier',
  'numberWords',
  'numberDiffers',
  'lookalike',
  'acronym',
  'transliteration',
  'syllableDiffers',
  'nasab',
  'nickname',
  'orderSwap',
];

export interface MatchRuleFired {
  rule: MatchRule;
  /** what the name score was multiplied by (1: the rule only made the names comparable) */
  factor: number;
  detail: string;
}

export interface MatchExplanation {
  nameScore: number;
  tokens: { query: string; matched: string | null; how: TokenMatchHow; score: number; weight: number }[];
  qualifiers: { kind: 'dateOfBirth' | 'nationality' | 'documentNumber'; effect: number; detail: string }[];
  /** The matcher's rules that fired for this pair of names (absent on explanations stored before they existed). */
  rules?: MatchRuleFired[];
}

export interface ScreeningHit {
  source: string;
  kind: ListKind;
  externalId: string;
  entityType: EntityType;
  primaryName: string;
  matchedName: string;
  score: number;
  explanation: MatchExplanation;
  programs: string[];
  addedDate?: string;
  /** Snapshot version of that source the hit comes from. */
  listVersion: string;
}

export const DEFAULT_THRESHOLD = 0.85;
export const DEFAULT_LIMIT = 10;

/** The official sources this library imports; custom lists are `CUSTOM_<NAME>`. */
export const OFFICIAL_SOURCES = ['OFAC_SDN', 'OFAC_CONSOLIDATED', 'UN_SC', 'EU_FSF', 'UK_OFSI'] as const;

export function isValidSource(source: string): boolean {
  return (OFFICIAL_SOURCES as readonly string[]).includes(source) || /^CUSTOM_[A-Z0-9_]{1,48}$/.test(source);
}
