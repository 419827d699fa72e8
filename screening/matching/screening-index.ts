import { prepareName, type NameToken, type PreparedName } from './normalize.js';
import { equivalenceKeys, isKnownName, nicknameRoots } from './equivalents.js';
import { abjadKey, abjadKeys, compareTokens, MIN_TOKEN_SCORE, phoneticCodes, skeleton, type TokenSimilarity } from './similarity.js';
import { acronymWords, combine, spellsAcronyms, joinTokens, numberUnits, round, scorePrepared, tokenWeight } from './name-score.js';
import { maxBoost, qualify } from './qualifiers.js';
import { KeyedLists, packLists, type PackedLists } from './packed-lists.js';
import {
  DEFAULT_LIMIT,
  DEFAULT_THRESHOLD,
  type EntityType,
  type ListEntry,
  type NameType,
  type ScreeningHit,
  type ScreeningQuery,
} from '../types.js';

/**
 * In-memory screening index. Every list name is prepared once (normalised tokens with roles);
 * distinct tokens form a dictionary, and blocking keys point at dictionary tokens:
 *   x: the token · e: its equivalence groups · p: Double Metaphone codes · s: transliteration
 *   skeleton · a: abjad consonant key · d: single-deletion variants (one typo) · r: token without
 *   a glued article (alzawahiri → zawahiri)
 *   n: the names a nickname stands for · Korean syllables also under their Latin spellings
 * plus two adjacent tokens joined ("ben ali" → "benali"), number words read as digits ("forty four"
 * → "44") and, for names that are not people's, initials of the name and of its first words
 * ("people liberation army" → "pla", under k keys that only query words which are no known names
 * look up) as extra dictionary entries (matched exactly).
 * A query collects candidate tokens through the same keys, scores each candidate token once, and
 * only names whose best possible score reaches the threshold are aligned and scored in full.
 */

/** Longer queries are cut: names do not have more parts, and the search cost grows with them. */
export const MAX_QUERY_CHARS = 300;
export const MAX_QUERY_TOKENS = 12;

/** Weak aliases (OFAC "a.k.a. weak", UN low-quality aliases) are discounted. */
export const NAME_TYPE_FACTOR: Record<NameType, number> = { PRIMARY: 1, ALIAS: 1, ORIGINAL_SCRIPT: 1, WEAK_ALIAS: 0.93 };

interface IndexedName {
  entry: number;
  type: NameType;
  full: string;
  prepared: PreparedName;
}

/** A dictionary token's flags: it stands for several name tokens joined (`span` of them); it was made by a rule (number words, initials), so only an exact match counts. */
const JOINED = 1;
const VIRTUAL = 2;

/**
 * Initials of a name that is not a person's (its words before legal forms were set aside), and of its
 * first 3 to 5 words (from its start or after a leading legal form): "pla" for People's Liberation Army, "pjscuac" and "uac"… for PJSC United Aircraft
 * Corporation. `span`: how many of the name's tokens they stand for.
 */
export function acronymTokens(p: PreparedName): { text: string; span: number }[] {
  const { words, token } = acronymWords(p);
  if (words.length < 3 || words.some((t) => !/^[a-z]/.test(t.text) || t.cjk)) return [];
  const out = new Map<string, number>();
  const add = (ws: NameToken[], idx: number[]) => {
    const span = idx.filter((i) => i >= 0).length;
    if (ws.length >= 3 && ws.length <= 8 && span > 0) out.set(ws.map((t) => t.text[0]).join(''), span);
  };
  // from the start, or from after a leading legal form: the first 3 to 5 words and all of them
  for (const start of token[0] < 0 ? [0, token.findIndex((i) => i >= 0)] : [0]) {
    if (start < 0) continue;
    for (let end = start + 3; end <= Math.min(words.length, start + 5); end++) add(words.slice(start, end), token.slice(start, end));
    add(words.slice(start), token.slice(start));
    const significant = words.map((t, i) => [t, token[i]] as const).filter(([t], i) => i >= start && t.role !== 'particle');
    add(
      significant.map(([t]) => t),
      significant.map(([, i]) => i),
    );
  }
  return [...out].map(([text, span]) => ({ text, span }));
}

/**
 * Each indexed name's slot in the running search's Accumulator, valid where its stamp is the
 * search's: one pair of arrays for every search of the index (searches run one at a time), none
 * cleared or allocated per search.
 */
class SlotTable {
  readonly slotOf: Int32Array;
  readonly stamps: Uint32Array;
  private stamp = 0;

  constructor(names: number) {
    this.slotOf = new Int32Array(names);
    this.stamps = new Uint32Array(names);
  }

  /** A stamp no slot carries yet. */
  next(): number {
    if (this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }
}

/**
 * Per candidate name during a search (flat typed arrays, one slot per name, kept from one search
 * to the next and zeroed as slots are taken: no allocation per candidate or per search): best
 * similarity per query token, whether it matched other than by an initial, and how many joined
 * tokens were used.
 */
class Accumulator {
  readonly names: number[] = [];
  width = 0;
  best = new Float64Array(0);
  strong = new Uint8Array(0);
  joined = new Int32Array(0);
  /** Whether a significant query token matched it in full (not only as an initial). */
  anchored = new Uint8Array(0);
  private stamp = 0;

  constructor(private readonly slots: SlotTable) {}

  /** Empties it for a search of `width` query tokens. */
  start(width: number): this {
    this.width = width;
    this.names.length = 0;
    this.stamp = this.slots.next();
    if (this.best.length < 256 * width) this.resize(256, width);
    return this;
  }

  slot(nameId: number, create: boolean): number {
    if (this.slots.stamps[nameId] === this.stamp) return this.slots.slotOf[nameId];
    if (!create) return -1;
    const n = this.names.length;
    const W = this.width;
    if ((n + 1) * W > this.best.length || n === this.joined.length) this.resize(n * 2, W);
    for (let i = n * W; i < (n + 1) * W; i++) {
      this.best[i] = 0;
      this.strong[i] = 0;
    }
    this.joined[n] = 0;
    this.anchored[n] = 0;
    this.names.push(nameId);
    this.slots.stamps[nameId] = this.stamp;
    this.slots.slotOf[nameId] = n;
    return n;
  }

  private resize(slots: number, width: number): void {
    const grow = <T extends Float64Array | Uint8Array | Int32Array>(a: T, size: number): T => {
      const b = new (a.constructor as new (n: number) => T)(Math.max(size, a.length));
      b.set(a);
      return b;
    };
    this.best = grow(this.best, slots * width);
    this.strong = grow(this.strong, slots * width);
    this.joined = grow(this.joined, slots);
    this.anchored = grow(this.anchored, slots);
  }

  get size(): number {
    return this.names.length;
  }
}

/** A part of the query looked up in the index: one token, adjacent tokens joined, or a token made by a rule (`virtual`). */
interface QueryUnit {
  idx: number[];
  token: NameToken;
  virtual?: boolean;
}

/** A dictionary token a query unit matched: its names (`dictNames.items` from `from` up to `to`, ascending ids), its span, and how well. */
interface TokenMatch {
  from: number;
  to: number;
  span: number;
  sim: TokenSimilarity;
}

/** Query units whose matches a ScreeningIndex remembers (a few MB). */
const MAX_REMEMBERED = 20_000;

const tokenKey = (t: NameToken) => (t.abjad ? `${t.text}#` : t.text);

function deletions(text: string): string[] {
  if (text.length < 4) return [];
  const out = new Set<string>();
  for (let i = 0; i < text.length; i++) out.add(text.slice(0, i) + text.slice(i + 1));
  return [...out];
}

const ARTICLE = /^(al|el|ul)(?=[a-z]{3,})/;

/** Keys a list token is filed under (joined tokens only under their text: they serve concatenations). */
function indexKeys(t: NameToken, joined: boolean): string[] {
  const text = t.text;
  const keys = [`x${text}`];
  const stripped = text.replace(ARTICLE, '');
  if (stripped !== text) keys.push(`r${stripped}`);
  for (const sp of t.spellings ?? []) keys.push(`x${sp}`);
  if (joined || text.length === 1) return keys;
  for (const e of equivalenceKeys(text)) keys.push(`e${e}`);
  for (const r of nicknameRoots(text)) keys.push(`n${r}`);
  if (stripped !== text) for (const e of equivalenceKeys(stripped)) keys.push(`e${e}`);
  if (/\d/.test(text)) return keys;
  for (const c of phoneticCodes(text)) if (c.length >= 2) keys.push(`p${c}`);
  if (text.length >= 4) keys.push(`s${skeleton(text)}`);
  const ak = abjadKey(text);
  if (ak.length >= 2) keys.push(`a${ak}`);
  // all readings of abjadKeys, for matches across scripts only: filed by the token's script
  for (const k of abjadKeys(text)) if (k.length >= 2) keys.push(`${t.abjad ? 'A' : 'L'}${k}`);
  if (text.length >= 4) {
    keys.push(`d${text}`);
    for (const d of deletions(text)) keys.push(`d${d}`);
  }
  return keys;
}

/** Keys a query token looks up. */
function queryKeys(t: NameToken): string[] {
  const text = t.text;
  const stripped = text.replace(ARTICLE, '');
  const keys = [`x${text}`, `r${text}`];
  if (stripped !== text) keys.push(`x${stripped}`, `r${stripped}`);
  for (const sp of t.spellings ?? []) keys.push(`x${sp}`);
  if (text.length === 1) return keys;
  for (const e of equivalenceKeys(text)) keys.push(`e${e}`);
  for (const r of nicknameRoots(text)) keys.push(`n${r}`);
  if (stripped !== text) for (const e of equivalenceKeys(stripped)) keys.push(`e${e}`);
  if (/\d/.test(text)) return keys;
  for (const c of phoneticCodes(text)) if (c.length >= 2) keys.push(`p${c}`);
  if (text.length >= 4) keys.push(`s${skeleton(text)}`);
  const ak = abjadKey(text);
  if (ak.length >= 2) keys.push(`a${ak}`);
  for (const k of abjadKeys(text)) if (k.length >= 2) keys.push(`${t.abjad ? 'L' : 'A'}${k}`);
  // one typo either side: the token and its deletions against the list's deletions
  if (text.length >= 3) {
    keys.push(`d${text}`);
    if (text.length >= 4) for (const d of deletions(text)) keys.push(`d${d}`);
  }
  return keys;
}

/** Whether `sorted[from..to)`, ascending, holds a value (binary search). */
function hasSorted(sorted: Int32Array, from: number, to: number, value: number): boolean {
  let lo = from;
  let hi = to - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid];
    if (v === value) return true;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

export function entityMatches(queryType: ScreeningQuery['entityType'], entryType: EntityType): boolean {
  if (!queryType || entryType === 'UNKNOWN') return true;
  if (queryType === 'INDIVIDUAL') return entryType === 'INDIVIDUAL';
  return entryType !== 'INDIVIDUAL';
}

/** An index while it is built: growable arrays and maps, frozen into a ScreeningIndex by `finish`. */
class IndexBuilder {
  readonly names: IndexedName[] = [];
  private readonly weightsFrom: number[] = [];
  private readonly weights: number[] = [];
  private readonly dictTokens: NameToken[] = [];
  private readonly dictNames: number[][] = [];
  private readonly dictSpan: number[] = [];
  private readonly dictFlags: number[] = [];
  private readonly dictByKey = new Map<string, number>();
  private readonly blocks = new Map<string, number[]>();

  constructor(private readonly entries: ListEntry[]) {}

  addEntry(e: number): void {
    const entry = this.entries[e];
    const seen = new Set<string>();
    for (const n of entry.names) {
      const prepared = prepareName(n.full, { entityType: entry.entityType, commaMeansFamily: true });
      if (!prepared.tokens.length || seen.has(prepared.normalized + (prepared.tokens.some((t) => t.role === 'family') ? '|f' : '')))
        continue;
      seen.add(prepared.normalized + (prepared.tokens.some((t) => t.role === 'family') ? '|f' : ''));
      const weights = prepared.tokens.map(tokenWeight).sort((a, b) => b - a);
      const id = this.names.length;
      this.names.push({ entry: e, type: n.type, full: n.full, prepared });
      this.weightsFrom.push(this.weights.length);
      this.weights.push(weights.length, NAME_TYPE_FACTOR[n.type]);
      let sum = 0;
      for (const w of weights) this.weights.push((sum += w));
      const toks = prepared.tokens;
      for (const t of toks) this.addToken(t, id, 1, false);
      for (let i = 0; i + 1 < toks.length; i++) {
        if (toks[i].role === 'initial' || toks[i + 1].role === 'initial') continue;
        this.addToken(joinTokens(toks[i], toks[i + 1]), id, 2, false);
      }
      for (const u of numberUnits(toks)) this.addToken(u.token, id, u.idx.length, true);
      if (spellsAcronyms(prepared))
        for (const a of acronymTokens(prepared)) this.addToken({ text: a.text, role: 'given', abjad: false }, id, a.span, true);
    }
  }

  private addToken(t: NameToken, nameId: number, span: number, virtual: boolean): void {
    const joined = span > 1;
    const k = (virtual ? '~' : joined ? '+' : '') + tokenKey(t);
    let id = this.dictByKey.get(k);
    if (id === undefined) {
      id = this.dictTokens.length;
      this.dictByKey.set(k, id);
      this.dictTokens.push(t);
      this.dictNames.push([]);
      this.dictSpan.push(span);
      this.dictFlags.push((joined ? JOINED : 0) | (virtual ? VIRTUAL : 0));
      for (const key of virtual ? [/^\d+$/.test(t.text) ? `x${t.text}` : `k${t.text}`] : indexKeys(t, joined)) {
        const list = this.blocks.get(key);
        if (list) list.push(id);
        else this.blocks.set(key, [id]);
      }
    }
    const names = this.dictNames[id];
    if (names[names.length - 1] !== nameId) names.push(nameId);
  }

  finish(versions: Record<string, string>): ScreeningIndex {
    return new ScreeningIndex({
      entries: this.entries,
      versions: { ...versions },
      names: this.names,
      weightsFrom: Uint32Array.from(this.weightsFrom),
      weights: Float64Array.from(this.weights),
      dictTokens: this.dictTokens,
      dictNames: packLists(this.dictNames),
      dictSpan: Uint8Array.from(this.dictSpan),
      dictFlags: Uint8Array.from(this.dictFlags),
      blocks: KeyedLists.pack(this.blocks),
    });
  }
}

/** What a ScreeningIndex is made of, frozen: flat typed arrays wherever a list of numbers would otherwise be an object of its own. */
interface IndexParts {
  entries: ListEntry[];
  versions: Record<string, string>;
  names: IndexedName[];
  /**
   * What a search's first pass reads of a name, side by side in one flat array instead of in the
   * name's objects (scattered in the heap, each a cache miss): from `weightsFrom[name]`, its
   * number of tokens, its type's factor, then the running sums of its token weights, descending.
   */
  weightsFrom: Uint32Array;
  weights: Float64Array;
  /** The dictionary: distinct list tokens, each one's names (ascending ids), span and flags (JOINED, VIRTUAL). */
  dictTokens: NameToken[];
  dictNames: PackedLists;
  dictSpan: Uint8Array;
  dictFlags: Uint8Array;
  /** Blocking keys (see above) → the dictionary tokens filed under them. */
  blocks: KeyedLists;
}

/**
 * Prefix filtering: the query's most common significant tokens (by how many list names their
 * matches reach), as many of them as cannot bring a name to `floor` on their own — with every
 * initial and particle of the query, each matched perfectly, the name's side fully covered. A name
 * that matches none of the other tokens cannot be a hit, so these tokens need not open candidates:
 * they only add to the names the rarer tokens opened (a given name common on the lists, such as
 * Muhammad, no longer makes every name holding it a candidate of "Muhammad Okafor").
 */
function commonTokens(
  qt: NameToken[],
  qWeights: number[],
  opening: QueryUnit[],
  matchesOf: (u: QueryUnit) => readonly TokenMatch[],
  floor: number,
): Set<number> {
  const closed = new Set<number>();
  const qTotal = qWeights.reduce((s, w) => s + w, 0);
  // initials and particles never open candidates: a name may match all of them besides
  let weight = qt.reduce((s, t, i) => (t.role === 'initial' || t.role === 'particle' ? s + qWeights[i] : s), 0);
  const reach = (u: QueryUnit) => matchesOf(u).reduce((n, m) => n + m.to - m.from, 0);
  const singles = opening
    .filter((u) => u.idx.length === 1 && !u.virtual)
    .map((u) => ({ i: u.idx[0], reach: reach(u) }))
    .sort((a, b) => b.reach - a.reach);
  for (const { i } of singles) {
    if (closed.has(i)) continue;
    // the name score's bound (combine) for a name matching only these: `strong` counts them
    if (combine((weight + qWeights[i]) / qTotal, 1, closed.size + 1) >= floor) break;
    closed.add(i);
    weight += qWeights[i];
  }
  // every significant token closed (a floor above any score): nothing could open, so nothing is closed
  return singles.every(({ i }) => closed.has(i)) ? new Set() : closed;
}

export class ScreeningIndex {
  private readonly entries: ListEntry[];
  private readonly versions: Record<string, string>;
  private readonly names: IndexedName[];
  private readonly weightsFrom: Uint32Array;
  private readonly weights: Float64Array;
  private readonly dictTokens: NameToken[];
  private readonly dictNames: PackedLists;
  private readonly dictSpan: Uint8Array;
  private readonly dictFlags: Uint8Array;
  private readonly blocks: KeyedLists;

  /** Made by `build` or `buildAsync`. */
  constructor(parts: IndexParts) {
    ({
      entries: this.entries,
      versions: this.versions,
      names: this.names,
      weightsFrom: this.weightsFrom,
      weights: this.weights,
      dictTokens: this.dictTokens,
      dictNames: this.dictNames,
      dictSpan: this.dictSpan,
      dictFlags: this.dictFlags,
      blocks: this.blocks,
    } = parts);
  }

  static build(entries: ListEntry[], versions: Record<string, string>): ScreeningIndex {
    const builder = new IndexBuilder(entries);
    for (let e = 0; e < entries.length; e++) builder.addEntry(e);
    return builder.finish(versions);
  }

  /**
   * The same, yielding to the event loop every `chunk` entries so that a process keeps serving
   * (with its previous index) while a new snapshot is indexed.
   */
  static async buildAsync(entries: ListEntry[], versions: Record<string, string>, chunk = 500): Promise<ScreeningIndex> {
    const builder = new IndexBuilder(entries);
    for (let e = 0; e < entries.length; e++) {
      builder.addEntry(e);
      if (e % chunk === chunk - 1) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return builder.finish(versions);
  }

  get size(): number {
    return this.entries.length;
  }

  /** Number of indexed names (primary names and aliases). */
  get nameCount(): number {
    return this.names.length;
  }

  /** Bytes of the packed arrays (the entries and names as objects are not counted). */
  get packedBytes(): number {
    const arrays = [this.weightsFrom, this.weights, this.dictNames.start, this.dictNames.items, this.dictSpan, this.dictFlags];
    return arrays.reduce((sum, array) => sum + array.byteLength, this.blocks.byteLength);
  }

  search(q: ScreeningQuery): ScreeningHit[] {
    const threshold = q.threshold ?? DEFAULT_THRESHOLD;
    const limit = q.limit ?? DEFAULT_LIMIT;
    const prepared = prepareName(q.fullName.slice(0, MAX_QUERY_CHARS), { entityType: q.entityType, commaMeansFamily: true });
    if (prepared.tokens.length > MAX_QUERY_TOKENS) {
      prepared.tokens = prepared.tokens.slice(0, MAX_QUERY_TOKENS);
      // the words initials are read from point at tokens: none past the cut
      const past = prepared.words?.findIndex((w) => w.token >= MAX_QUERY_TOKENS) ?? -1;
      if (past >= 0) prepared.words = prepared.words!.slice(0, past);
    }
    const qt = prepared.tokens;
    if (!qt.length) return [];
    const qWeights = qt.map(tokenWeight);
    const qTotal = qWeights.reduce((s, w) => s + w, 0);
    const boost = maxBoost(q);
    const floor = Math.max(0, threshold - boost - 1e-9);

    // query units: single tokens, adjacent pairs joined, number words as digits, initials
    const units: QueryUnit[] = qt.map((token, i) => ({ idx: [i], token }));
    for (let i = 0; i + 1 < qt.length; i++) {
      if (qt[i].role === 'initial' || qt[i + 1].role === 'initial') continue;
      units.push({ idx: [i, i + 1], token: joinTokens(qt[i], qt[i + 1]) });
    }
    for (const u of numberUnits(qt)) units.push({ idx: u.idx, token: u.token, virtual: true });
    if (spellsAcronyms(prepared))
      for (const a of acronymTokens(prepared))
        units.push({
          idx: Array.from({ length: a.span }, (_, i) => i),
          token: { text: a.text, role: 'given', abjad: false },
          virtual: true,
        });

    // per candidate name: best similarity per query token, and whether a joined token was used
    const W = qt.length;
    const acc = (this.accumulator ??= new Accumulator(new SlotTable(this.names.length))).start(W);
    const touchSlot = (slot: number, idx: number[], sim: TokenSimilarity, span: number, anchor: boolean) => {
      if (anchor) acc.anchored[slot] = 1;
      for (const i of idx) {
        const at = slot * W + i;
        if (sim.score > acc.best[at]) acc.best[at] = sim.score;
        if (sim.how !== 'initial') acc.strong[at] = 1;
      }
      // a unit of several tokens on either side lets that many more name tokens be covered
      if (span > 1) acc.joined[slot] += span - 1;
    };
    const lookup = (unit: QueryUnit, keyKind: string, keys: () => string[], create: boolean) =>
      touchAll(unit, this.matchesOf(unit, keyKind, keys), create, false);
    const touchAll = (unit: QueryUnit, matches: readonly TokenMatch[], create: boolean, anchor: boolean) => {
      const names = this.dictNames.items;
      for (const { from, to, span: tokenSpan, sim } of matches) {
        const span = Math.max(unit.idx.length, tokenSpan);
        if (!create && to - from > acc.size * 16) {
          // a common token (an initial, a frequent word) only adds to the few names already found:
          // each of those is looked up in its names (ascending ids) instead of the other way round
          for (let slot = 0; slot < acc.size; slot++)
            if (hasSorted(names, from, to, acc.names[slot])) touchSlot(slot, unit.idx, sim, span, anchor);
          continue;
        }
        for (let i = from; i < to; i++) {
          const slot = acc.slot(names[i], create);
          if (slot >= 0) touchSlot(slot, unit.idx, sim, span, anchor);
        }
      }
    };
    // significant tokens open candidates; initials and particles only add to existing ones
    const opening = units.filter((u) => u.token.role !== 'initial' && u.token.role !== 'particle');
    const secondary = units.filter((u) => u.token.role === 'initial' || u.token.role === 'particle');
    const openAll = opening.length === 0;
    // a query word that may be an acronym also looks up the initials of entity names (k keys)
    const acronymKey = (t: NameToken) =>
      prepared.kind !== 'individual' && /^[a-z]{3,8}$/.test(t.text) && !isKnownName(t.text) ? [`k${t.text}`] : [];
    const exact = (u: QueryUnit) => [`x${u.token.text}`];
    const unitMatches = new Map<QueryUnit, readonly TokenMatch[]>();
    const openingMatches = (u: QueryUnit): readonly TokenMatch[] => {
      let matches = unitMatches.get(u);
      if (matches) return matches;
      const acronym = u.idx.length === 1 && !u.virtual ? acronymKey(u.token) : [];
      matches = u.virtual
        ? this.matchesOf(u, 'exact', () => exact(u))
        : this.matchesOf(u, acronym.length ? 'keys+acronym' : 'keys', () => [...queryKeys(u.token), ...acronym]);
      unitMatches.set(u, matches);
      return matches;
    };
    const closed = commonTokens(qt, qWeights, opening, openingMatches, floor);
    // the units on rarer tokens open candidates first, as do those tokens matching a list initial
    // ("Adaeze Kabore" → "A. Kabir") when common tokens are closed; the rest only add to them
    const opens = (u: QueryUnit) => u.idx.some((i) => !closed.has(i));
    const initialsOpen = (u: QueryUnit) => closed.size > 0 && opening.includes(u) && opens(u);
    const asInitial = units.filter((u) => u.idx.length === 1 && u.token.role !== 'initial');
    const againstInitials = (u: QueryUnit, create: boolean) => lookup(u, 'first letter', () => [`x${u.token.text[0]}`], create);
    for (const u of opening.filter(opens)) touchAll(u, openingMatches(u), true, true);
    for (const u of asInitial.filter(initialsOpen)) againstInitials(u, true);
    for (const u of opening.filter((u) => !opens(u))) touchAll(u, openingMatches(u), false, true);
    for (const u of secondary) lookup(u, u.virtual ? 'exact' : 'keys', () => (u.virtual ? exact(u) : queryKeys(u.token)), openAll);
    // query initials vs any list token with that first letter, and full query tokens vs list initials
    for (const u of units)
      if (u.idx.length === 1 && u.token.role === 'initial') this.initialLookup(u.token.text[0], u.idx[0], acc, openAll);
    for (const u of asInitial.filter((u) => !initialsOpen(u))) againstInitials(u, false);

    // token pairs repeat across candidate names: compare each pair once per query
    const pairCache = new Map<string, TokenSimilarity>();
    const cachedCompare = (a: NameToken, b: NameToken): TokenSimilarity => {
      const key = `${a.abjad ? '#' : ''}${a.text}|${b.abjad ? '#' : ''}${b.text}`;
      let sim = pairCache.get(key);
      if (!sim) {
        sim = compareTokens(a, b);
        pairCache.set(key, sim);
      }
      return sim;
    };
    const kinds = q.kinds?.length ? new Set(q.kinds) : null;
    const sources = q.sources?.length ? new Set(q.sources) : null;
    const best = new Map<number, ScreeningHit & { nameScore: number; nameId: number }>();
    let scored = 0;
    for (let slot = 0; slot < acc.size; slot++) {
      // a name only initials matched (opened by a rarer token's initial) is no candidate: none ever was
      if (!acc.anchored[slot] && !openAll) continue;
      const nameId = acc.names[slot];
      // upper bound of the name score from the per-token bests
      let qm = 0;
      let k = 0;
      let strong = 0;
      for (let i = 0; i < W; i++) {
        const b = acc.best[slot * W + i];
        qm += qWeights[i] * b;
        if (b > 0) k++;
        if (acc.strong[slot * W + i] && qt[i].role !== 'particle' && qt[i].role !== 'initial') strong++;
      }
      const covQ = qm / qTotal;
      const from = this.weightsFrom[nameId];
      const count = this.weights[from];
      const take = Math.min(count, k + acc.joined[slot]);
      const cm = take > 0 ? this.weights[from + 1 + take] : 0;
      const covC = Math.min(1, cm / this.weights[from + 1 + count]);
      const ub = combine(covQ, covC, strong) * this.weights[from + 1];
      if (ub < floor) continue;
      const name = this.names[nameId];
      const entry = this.entries[name.entry];
      if ((kinds && !kinds.has(entry.kind)) || (sources && !sources.has(entry.source)) || !entityMatches(q.entityType, entry.entityType))
        continue;

      scored++;
      const ns = scorePrepared(prepared, name.prepared, cachedCompare, floor / NAME_TYPE_FACTOR[name.type]);
      const nameScore = round(ns.score * NAME_TYPE_FACTOR[name.type]);
      if (nameScore < floor) continue;
      const prev = best.get(name.entry);
      // of an entry's names scoring the same, the first in the list's order (not whichever was found first)
      if (prev && (prev.nameScore > nameScore || (prev.nameScore === nameScore && prev.nameId < nameId))) continue;
      best.set(name.entry, {
        nameId,
        source: entry.source,
        kind: entry.kind,
        externalId: entry.externalId,
        entityType: entry.entityType,
        primaryName: entry.names.find((n) => n.type === 'PRIMARY')?.full ?? entry.names[0]?.full ?? '',
        matchedName: name.full,
        score: nameScore,
        nameScore,
        explanation: { nameScore, tokens: ns.tokens, qualifiers: [], rules: ns.rules },
        programs: entry.programs,
        ...(entry.addedDate ? { addedDate: entry.addedDate } : {}),
        listVersion: this.versions[entry.source] ?? 'unversioned',
      });
    }

    this.lastStats = { candidates: acc.size, scored, tokenPairs: pairCache.size };
    const hits: ScreeningHit[] = [];
    for (const [e, hit] of best) {
      const qualifiers = qualify(q, this.entries[e]);
      const score = round(Math.min(1, Math.max(0, hit.nameScore + qualifiers.reduce((s, x) => s + x.effect, 0))));
      if (score < threshold) continue;
      const { nameScore: _n, nameId: _id, ...rest } = hit;
      hits.push({ ...rest, score, explanation: { ...hit.explanation, qualifiers } });
    }
    hits.sort((a, b) => b.score - a.score || a.source.localeCompare(b.source) || a.externalId.localeCompare(b.externalId));
    return hits.slice(0, limit);
  }

  private initialCache: Map<string, number[]> | null = null;
  private accumulator: Accumulator | null = null;

  /** Drops the token matches remembered across searches (a bench measures searches from cold with it). */
  forgetMatches(): void {
    this.remembered.clear();
  }

  /** Dictionary tokens matched by a query unit, by the unit and the kind of keys it looked up (matchesOf); least recently used first. */
  private readonly remembered = new Map<string, readonly TokenMatch[]>();

  /**
   * The dictionary tokens a query unit matches well enough to count, with their similarity: the
   * keys' blocks, each token compared once. Remembered across searches (the index never changes,
   * and names repeat: a given name or a family name common in a country comes back on most
   * searches), up to MAX_REMEMBERED units.
   */
  private matchesOf(unit: QueryUnit, keyKind: string, keys: () => string[]): readonly TokenMatch[] {
    const t = unit.token;
    const key = `${keyKind}|${unit.idx.length > 1 ? 'j' : 's'}${unit.virtual ? 'v' : ''}|${t.abjad ? '#' : ''}${t.cjk ?? ''}${t.written ?? ''}|${t.text}|${t.spellings?.join('/') ?? ''}`;
    const known = this.remembered.get(key);
    if (known) {
      this.remembered.delete(key);
      this.remembered.set(key, known);
      return known;
    }
    const candidates = new Set<number>();
    const { start, items } = this.blocks.lists;
    for (const k of keys()) {
      const block = this.blocks.find(k);
      if (block >= 0) for (let i = start[block]; i < start[block + 1]; i++) candidates.add(items[i]);
    }
    const found: TokenMatch[] = [];
    for (const id of candidates) {
      const token = this.dictTokens[id];
      const joined = (this.dictFlags[id] & JOINED) !== 0;
      const virtual = (this.dictFlags[id] & VIRTUAL) !== 0;
      if (unit.idx.length > 1 && joined && !(unit.virtual && virtual && /^\d+$/.test(token.text))) continue;
      // number words and initials count only as exactly the same digits or letters
      if ((unit.virtual || virtual) && t.text !== token.text) continue;
      const sim = compareTokens(t, token);
      if (sim.score < MIN_TOKEN_SCORE || ((unit.idx.length > 1 || joined) && (sim.score < 0.85 || sim.how === 'initial'))) continue;
      found.push({ from: this.dictNames.start[id], to: this.dictNames.start[id + 1], span: this.dictSpan[id], sim });
    }
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.delete(this.remembered.keys().next().value!);
    this.remembered.set(key, found);
    return found;
  }

  /** Work done by the last search (candidate names, names fully scored, token pairs compared). */
  lastStats = { candidates: 0, scored: 0, tokenPairs: 0 };

  /** A query initial matches list tokens starting with that letter (only names already found, unless the query is all initials). */
  private initialLookup(letter: string, i: number, acc: Accumulator, create: boolean): void {
    const W = acc.width;
    if (!create) {
      for (let slot = 0; slot < acc.size; slot++) {
        if (acc.best[slot * W + i] >= 0.9) continue;
        if (this.names[acc.names[slot]].prepared.tokens.some((t) => t.text[0] === letter)) acc.best[slot * W + i] = 0.9;
      }
      return;
    }
    if (!this.initialCache) {
      this.initialCache = new Map();
      this.names.forEach((n, id) => {
        for (const l of new Set(n.prepared.tokens.map((t) => t.text[0]))) {
          const list = this.initialCache!.get(l) ?? [];
          list.push(id);
          this.initialCache!.set(l, list);
        }
      });
    }
    for (const nameId of this.initialCache.get(letter) ?? []) {
      const slot = acc.slot(nameId, true);
      acc.best[slot * W + i] = Math.max(acc.best[slot * W + i], 0.9);
    }
  }
}
