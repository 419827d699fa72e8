import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import anyAscii from 'any-ascii';
import { parseList, type ListEntry } from '../screening/index.js';

/**
 * A labelled evaluation set of name pairs built from the official lists themselves (the OFAC SDN and
 * UN Security Council files shipped in data/), so that nobody here wrote its labels:
 *
 * - positives: two names of the same list entry (primary name and an alias, or two aliases; the UN
 *   original-script name against the Latin ones). Weak aliases (OFAC "a.k.a. weak", UN low quality)
 *   are left out: the lists themselves say they are not reliable names.
 * - negatives: for a name, the nearest names of other entries of the same list and kind (individual or
 *   not), by character-trigram cosine on a plain ASCII form (a measure independent of the matcher, so
 *   the set does not move when the matcher changes). Pairs whose plain forms hold the same words are
 *   left out on both sides (two people called "Ali Hassan" are different entries no name can tell
 *   apart; an alias equal to the primary name but for punctuation says nothing).
 *
 * Each pair is tagged with the families of the issue it exercises (legalForm, number, lookalike,
 * acronym, script, givenName; "other" for none), detected from the text alone. Entries are split
 * by a seeded hash of their id: 50 % development, 50 % holdout (never tuned on). Deterministic:
 * `npm run build && node dist/bench/official-pairs.js [data dir] [output]` writes
 * bench/data/official-name-pairs.json.
 */

export type Family = 'legalForm' | 'number' | 'lookalike' | 'acronym' | 'script' | 'givenName' | 'other';
export const FAMILIES: Family[] = ['legalForm', 'number', 'lookalike', 'acronym', 'script', 'givenName', 'other'];

export interface OfficialPair {
  a: string;
  b: string;
  match: boolean;
  /** the entry type of a (and of b: negatives pair entries of one kind) */
  entityType: string;
  families: Family[];
  /** source:externalId of each side */
  ids: [string, string];
}

export interface OfficialPairs {
  description: string;
  seed: number;
  lists: { source: string; publishedOn: string }[];
  dev: OfficialPair[];
  holdout: OfficialPair[];
}

const SEED = 20_250_419;
/** Pairs kept per family and label in each part (the rarer families keep all they have). */
const PER_FAMILY = 150;
const NEAREST_PER_NAME = 2;
const MIN_COSINE = 0.45;

/** FNV-1a of the text with a seed: the split and the samples are stable across runs and machines. */
function hash(text: string, seed = SEED): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const plain = (s: string) =>
  anyAscii(s)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
const wordsOf = (s: string) => plain(s).split(' ').filter(Boolean);
const sameWords = (a: string, b: string) => wordsOf(a).sort().join(' ') === wordsOf(b).sort().join(' ');

// --- family detectors (text only, independent of the matcher) ---------------------------------------

const LEGAL_FORM_WORDS =
  /\b(ltd|limited|llc|llp|plc|inc|incorporated|corp|corporation|company|co|gmbh|ag|aktiengesellschaft|gesellschaft|sa|sarl|sas|spa|srl|sro|bv|nv|jsc|ojsc|cjsc|pjsc|ooo|oao|zao|pao|ao|tov|fze|fzco|fzc|llc|pte|pty|bhd|sdn|kft|zrt|doo|ad|as|ab|oy|joint stock|stock company|limited liability|obshchestvo|aktsionernoe|tovarystvo|societe|sociedad|societa|sociedade|anonim|sirketi|establishment|est|trading|holding|holdings|group|sp z o o|public joint)\b/;
const NUMBER_WORDS =
  /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|deux|trois|quatre|cinq|vingt|odin|dva|chetyre|pyat)\b/;
const NON_LATIN = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;

function isAcronymOf(short: string, long: string): boolean {
  const s = wordsOf(short);
  const l = wordsOf(long).filter(
    (w) => !['of', 'the', 'and', 'for', 'de', 'des', 'du', 'la', 'le', 'al', 'el', 'i', 'y', 'et'].includes(w),
  );
  const initials = l.map((w) => w[0]).join('');
  return s.some((w) => w.length >= 2 && w.length <= 8 && initials.includes(w) && !l.includes(w));
}

export function families(a: string, b: string, entityType: string): Family[] {
  const out: Family[] = [];
  const pa = plain(a);
  const pb = plain(b);
  const individual = entityType === 'INDIVIDUAL';
  if (!individual && (LEGAL_FORM_WORDS.test(pa) || LEGAL_FORM_WORDS.test(pb))) out.push('legalForm');
  if (/\d/.test(a) || /\d/.test(b) || NUMBER_WORDS.test(pa) || NUMBER_WORDS.test(pb)) out.push('number');
  const lookalike = (s: string) =>
    /\p{L}\d+\p{L}/u.test(s) || /\b(\p{L}\.){2,}/u.test(s) || s.split(/\s+/).some((w) => /\p{Script=Latin}/u.test(w) && NON_LATIN.test(w));
  if (lookalike(a) || lookalike(b)) out.push('lookalike');
  if (!individual && (isAcronymOf(a, b) || isAcronymOf(b, a))) out.push('acronym');
  if (NON_LATIN.test(a.replace(/[\d\s\p{P}\p{S}]/gu, '')) || NON_LATIN.test(b.replace(/[\d\s\p{P}\p{S}]/gu, ''))) out.push('script');
  if (individual && !out.includes('script')) {
    const wa = new Set(wordsOf(a));
    const wb = wordsOf(b);
    if (wb.some((w) => wa.has(w))) out.push('givenName');
  }
  return out.length ? out : ['other'];
}

// --- nearest names by character trigrams ----------------------------------------------------------------

interface NameRef {
  entry: number;
  full: string;
  plain: string;
  grams: Map<string, number>;
  norm: number;
}

function trigrams(p: string): Map<string, number> {
  const s = ` ${p} `;
  const out = new Map<string, number>();
  for (let i = 0; i + 3 <= s.length; i++) out.set(s.slice(i, i + 3), (out.get(s.slice(i, i + 3)) ?? 0) + 1);
  return out;
}

function nearestOthers(names: NameRef[], groupOf: (n: NameRef) => string): Map<number, { other: number; cosine: number }[]> {
  const postings = new Map<string, number[]>();
  names.forEach((n, i) => {
    for (const g of n.grams.keys())
      (postings.get(`${groupOf(n)}|${g}`) ?? postings.set(`${groupOf(n)}|${g}`, []).get(`${groupOf(n)}|${g}`)!).push(i);
  });
  const out = new Map<number, { other: number; cosine: number }[]>();
  names.forEach((n, i) => {
    const dot = new Map<number, number>();
    for (const [g, c] of n.grams) {
      const list = postings.get(`${groupOf(n)}|${g}`)!;
      if (list.length > 1000) continue; // very common trigrams say little and cost much
      for (const j of list) if (names[j].entry !== n.entry) dot.set(j, (dot.get(j) ?? 0) + c * names[j].grams.get(g)!);
    }
    const ranked = [...dot]
      .map(([j, d]) => ({ other: j, cosine: d / (n.norm * names[j].norm) }))
      .filter((x) => x.cosine >= MIN_COSINE && !sameWords(n.full, names[x.other].full))
      .sort((x, y) => y.cosine - x.cosine || x.other - y.other);
    out.set(i, ranked.slice(0, NEAREST_PER_NAME));
  });
  return out;
}

// --- building the set ------------------------------------------------------------------------------------

export function buildPairs(lists: { source: string; entries: ListEntry[] }[]): { dev: OfficialPair[]; holdout: OfficialPair[] } {
  const entries = lists.flatMap((l) => l.entries);
  const idOf = (e: ListEntry) => `${e.source}:${e.externalId}`;
  const kindOf = (e: ListEntry) => (e.entityType === 'INDIVIDUAL' ? 'INDIVIDUAL' : 'OTHER');
  // names that carry a remark rather than a name ("… (false identity related to …)") are left out
  const usable = (e: ListEntry) =>
    e.names.filter(
      (n) => n.type !== 'WEAK_ALIAS' && plain(n.full).length >= 2 && wordsOf(n.full).length <= 12 && !/\([^)]*\s\S+\s\S+\s/.test(n.full),
    );

  const positives: OfficialPair[] = [];
  for (const e of entries) {
    const names = usable(e);
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        // the primary (or original-script) name against each alias, and aliases among themselves when few
        if (names.length > 6 && i > 0 && names[i].type !== 'ORIGINAL_SCRIPT' && names[j].type !== 'ORIGINAL_SCRIPT') continue;
        const [a, b] = [names[i].full, names[j].full];
        if (sameWords(a, b)) continue;
        positives.push({ a, b, match: true, entityType: e.entityType, families: families(a, b, e.entityType), ids: [idOf(e), idOf(e)] });
      }
    }
  }

  const refs: NameRef[] = [];
  entries.forEach((e, entry) => {
    for (const n of usable(e)) {
      const p = plain(n.full);
      const grams = trigrams(p);
      refs.push({ entry, full: n.full, plain: p, grams, norm: Math.sqrt([...grams.values()].reduce((s, c) => s + c * c, 0)) });
    }
  });
  const near = nearestOthers(refs, (n) => `${entries[n.entry].source}|${kindOf(entries[n.entry])}`);
  const negatives: OfficialPair[] = [];
  const seen = new Set<string>();
  refs.forEach((n, i) => {
    for (const { other } of near.get(i) ?? []) {
      const m = refs[other];
      const key = [n.full, m.full].sort().join('|');
      if (seen.has(key)) continue;
      seen.add(key);
      const e = entries[n.entry];
      negatives.push({
        a: n.full,
        b: m.full,
        match: false,
        entityType: e.entityType,
        families: families(n.full, m.full, e.entityType),
        ids: [idOf(e), idOf(entries[m.entry])],
      });
    }
  });

  // split by entry (the first side's), then sample per family and label
  const part = (p: OfficialPair) => (hash(p.ids[0]) % 2 === 0 ? 'dev' : 'holdout');
  const out = { dev: [] as OfficialPair[], holdout: [] as OfficialPair[] };
  for (const which of ['dev', 'holdout'] as const) {
    const chosen = new Set<OfficialPair>();
    for (const pool of [positives, negatives]) {
      const mine = pool.filter((p) => part(p) === which).sort((x, y) => hash(`${x.a}|${x.b}`) - hash(`${y.a}|${y.b}`));
      for (const f of FAMILIES) {
        let n = 0;
        for (const p of mine) {
          if (n >= PER_FAMILY) break;
          if (!p.families.includes(f)) continue;
          if (!chosen.has(p)) chosen.add(p);
          n++;
        }
      }
    }
    out[which] = [...chosen].sort((x, y) => Number(y.match) - Number(x.match) || hash(`${x.a}|${x.b}`) - hash(`${y.a}|${y.b}`));
  }
  return out;
}

export function readShippedLists(dataDir: string): {
  lists: ReturnType<typeof parseList>;
  published: { source: string; publishedOn: string }[];
} {
  const manifest = JSON.parse(readFileSync(path.join(dataDir, 'manifest.json'), 'utf8')) as {
    lists: { source: string; publishedOn: string; files: string[] }[];
  };
  const files = manifest.lists.flatMap((l) =>
    l.files.map((f) => ({ name: path.basename(f, '.br'), content: brotliDecompressSync(readFileSync(path.join(dataDir, f))) })),
  );
  return { lists: parseList(files), published: manifest.lists.map(({ source, publishedOn }) => ({ source, publishedOn })) };
}

if (process.argv[1]?.endsWith(`${path.sep}official-pairs.js`)) {
  const dataDir = path.resolve(process.argv[2] ?? 'data');
  const output = path.resolve(process.argv[3] ?? path.join('bench', 'data', 'official-name-pairs.json'));
  const { lists, published } = readShippedLists(dataDir);
  const { dev, holdout } = buildPairs(lists);
  const doc: OfficialPairs = {
    description:
      'Name pairs from the official lists in data/ (see bench/official-pairs.ts): positives are two names of one entry, negatives the nearest names (character trigrams) of other entries of the same list and kind. dev is for development; holdout is never tuned on.',
    seed: SEED,
    lists: published,
    dev,
    holdout,
  };
  writeFileSync(output, `${JSON.stringify(doc, null, 0).replace(/\},\{"a"/g, '},\n{"a"')}\n`);
  const count = (ps: OfficialPair[]) => `${ps.filter((p) => p.match).length} positives, ${ps.filter((p) => !p.match).length} negatives`;
  console.log(`${output}: dev ${count(dev)}; holdout ${count(holdout)}`);
}
