import { prepareName } from './normalize.js';
import { compareTokens } from './similarity.js';
import { compareNames } from './name-score.js';
import { ScreeningIndex } from './screening-index.js';
import type { ListEntry } from '../types.js';

const tok = (text: string, abjad = false) => ({ text, role: 'given' as const, abjad });
const norm = (s: string, entityType?: string) => prepareName(s, { entityType }).normalized;

describe('normalisation', () => {
  it('folds case, accents and punctuation; splits hyphens; drops apostrophes', () => {
    expect(norm('Ségolène NGOUÉ-Éboa')).toBe('segolene ngoue eboa');
    expect(norm("N'Golo O'Brien")).toBe('ngolo obrien');
    expect(norm('J.R. Smith')).toBe('j r smith');
  });

  it('removes honorifics and suffixes, keeps name-like titles with a low weight', () => {
    expect(norm('Dr. Amina Mohammed')).toBe('amina mohammed');
    expect(norm('Alhaji Aliko Dangote Jr.')).toBe('aliko dangote');
    const cheikh = prepareName('Cheikh Tidiane Gadio');
    expect(cheikh.tokens.map((t) => [t.text, t.role])).toEqual([
      ['cheikh', 'title'],
      ['tidiane', 'given'],
      ['gadio', 'given'],
    ]);
    // "HAJI, Ali" : Haji is the family name
    expect(prepareName('HAJI, Ali Ahmed').tokens.find((t) => t.text === 'haji')?.role).toBe('family');
  });

  it('drops legal-form words from entity names only', () => {
    expect(norm('Sahel Gold Trading SARL', 'ENTITY')).toBe('sahel gold');
    expect(norm('Golden Star Mining Co., Ltd.', 'ENTITY')).toBe('golden star mining');
    expect(norm('Kabul Construction GmbH')).toBe('kabul construction');
    expect(norm('Sa Inc', 'INDIVIDUAL')).toBe('sa inc');
  });

  it('marks the family name of "FAMILY, Given" and particles', () => {
    const p = prepareName('BIN LADEN, Usama');
    expect(p.tokens.map((t) => [t.text, t.role])).toEqual([
      ['usama', 'given'],
      ['bin', 'particle'],
      ['laden', 'family'],
    ]);
  });

  it('merges the Abd prefix with the following name', () => {
    expect(norm('Abd al-Rahman Ali')).toBe('abdrahman ali');
    expect(norm('Abdulrahman Ali')).toBe('abdrahman ali');
    expect(norm('Abderrahmane')).toBe('abdrahmane');
    expect(norm('Abdullah Abdoulaye')).toBe('abdullah abdoulaye');
  });

  it('transliterates Arabic (article apart, abjad flag), Cyrillic, Greek and CJK', () => {
    const ar = prepareName('أيمن الظواهري');
    expect(ar.tokens.every((t) => t.abjad)).toBe(true);
    expect(ar.normalized).toBe('ymn al dhwhry');
    expect(norm('Владимир Путин')).toBe('vladimir putin');
    expect(norm('Ηλίας')).toBe('ilias');
    expect(norm('张伟')).toBe('zhang wei');
  });
});

describe('token similarity', () => {
  it('tells how two tokens match', () => {
    expect(compareTokens(tok('traore'), tok('traore'))).toEqual({ score: 1, how: 'exact' });
    expect(compareTokens(tok('mohamed'), tok('muhammad')).how).toBe('equivalent');
    expect(compareTokens(tok('yusuf'), tok('joseph')).how).toBe('equivalent');
    expect(compareTokens(tok('ben'), tok('ibn')).how).toBe('equivalent');
    expect(compareTokens(tok('j'), tok('john'))).toEqual({ score: 0.9, how: 'initial' });
    expect(compareTokens(tok('prigozhin'), tok('prigojine')).how).toBe('phonetic');
    expect(compareTokens(tok('zawahiri'), tok('zawahri')).how).toBe('fuzzy');
    expect(compareTokens(tok('smh', true), tok('usama')).how).toBe('phonetic');
  });

  it('scores typos by relative distance and refuses distinct names', () => {
    expect(compareTokens(tok('bouteflika'), tok('boutefilka')).score).toBeGreaterThan(0.85);
    expect(compareTokens(tok('robert'), tok('rupert')).how).toBe('missing');
    // known different names, however close
    expect(compareTokens(tok('hassan'), tok('hussein')).how).toBe('missing');
    expect(compareTokens(tok('ahmed'), tok('mahmoud')).how).toBe('missing');
    expect(compareTokens(tok('ali'), tok('alo')).how).toBe('missing');
  });
});

describe('name score', () => {
  it('aligns regardless of order (a swap with no known family name costs a little) and explains every query token', () => {
    const r = compareNames('Traore Moussa', 'MOUSSA TRAORE');
    expect(r.score).toBe(0.95);
    expect(r.rules.map((x) => x.rule)).toEqual(['orderSwap']);
    expect(compareNames('TRAORE, Moussa', 'MOUSSA TRAORE').score).toBe(1);
    expect(r.tokens).toEqual([
      { query: 'traore', matched: 'traore', how: 'exact', score: 1, weight: 1 },
      { query: 'moussa', matched: 'moussa', how: 'exact', score: 1, weight: 1 },
    ]);
  });

  it('accepts variants and rejects hard negatives at 0.85', () => {
    expect(compareNames('Mohamed Traoré', 'Muhammad Traore').score).toBeGreaterThanOrEqual(0.85);
    expect(compareNames('Ayman al-Zawahiri', 'Ayman Muhammad Rabi al-Zawahiri').score).toBeGreaterThanOrEqual(0.85);
    expect(compareNames('Abdulrahman Benali', 'Abd al-Rahman Ben Ali').score).toBeGreaterThanOrEqual(0.85);
    expect(compareNames('Pieter van der Merwe', 'Pieter Vandermerwe').score).toBeGreaterThanOrEqual(0.85);
    expect(compareNames('Moussa Traore', 'Ibrahim Traore').score).toBeLessThan(0.85);
    expect(compareNames('Hassan', 'Ahmed Hassan').score).toBeLessThan(0.85);
    expect(compareNames('Bank Melli Iran', 'Bank Saderat Iran', { entityType: 'ENTITY' }).score).toBeLessThan(0.85);
  });

  it('weights the family name above given names and particles below', () => {
    const missingGiven = compareNames('Traore', 'TRAORE, Moussa Kalifa').score;
    const missingFamily = compareNames('Moussa Kalifa', 'TRAORE, Moussa Kalifa').score;
    expect(missingFamily).toBeLessThan(missingGiven + 0.2);
    expect(compareNames('Omar al-Bashir', 'Omar Bashir').score).toBeGreaterThan(compareNames('Omar Hassan Bashir', 'Omar Bashir').score);
  });
});

function entry(partial: Partial<ListEntry> & { externalId: string; names: ListEntry['names'] }): ListEntry {
  return {
    source: 'OFAC_SDN',
    kind: 'SANCTIONS',
    entityType: 'INDIVIDUAL',
    datesOfBirth: [],
    nationalities: [],
    documents: [],
    programs: ['SDGT'],
    ...partial,
  };
}

describe('ScreeningIndex', () => {
  const entries: ListEntry[] = [
    entry({
      externalId: '1',
      names: [
        { full: 'AL-FAKHOURI, Yusuf Abd al-Karim', type: 'PRIMARY' },
        { full: 'Abu Karim', type: 'WEAK_ALIAS' },
      ],
      datesOfBirth: ['1971-03-12'],
      nationalities: ['LY'],
      documents: [{ type: 'Passport', number: 'LY4478120' }],
    }),
    entry({ externalId: '2', names: [{ full: 'KOUYATE, Mamadou Lamine', type: 'PRIMARY' }], datesOfBirth: ['1981'] }),
    entry({ externalId: '3', entityType: 'ENTITY', names: [{ full: 'SAHEL GOLD TRADING SARL', type: 'PRIMARY' }] }),
    entry({
      externalId: 'PEP-1',
      source: 'CUSTOM_PEP_NG',
      kind: 'PEP',
      names: [{ full: 'Folasade Adebayo', type: 'PRIMARY' }],
      addedDate: '2024-01-15',
    }),
    entry({
      externalId: 'QDi.9',
      source: 'UN_SC',
      names: [
        { full: 'Abderrahmane Ould Sidi', type: 'PRIMARY' },
        { full: 'عبد الرحمن ولد سيدي', type: 'ORIGINAL_SCRIPT' },
      ],
    }),
  ];
  const index = ScreeningIndex.build(entries, { OFAC_SDN: 'v3', CUSTOM_PEP_NG: 'v1', UN_SC: 'v2' });

  it('finds transliterated, reordered names and reports the list version', () => {
    const [hit] = index.search({ fullName: 'Youssef Abdelkarim Al Fakhouri' });
    expect(hit).toMatchObject({
      source: 'OFAC_SDN',
      externalId: '1',
      primaryName: 'AL-FAKHOURI, Yusuf Abd al-Karim',
      listVersion: 'v3',
      kind: 'SANCTIONS',
    });
    expect(hit.score).toBeGreaterThanOrEqual(0.85);
    expect(hit.explanation.tokens.find((t) => t.query === 'youssef')).toMatchObject({ matched: 'yusuf', how: 'equivalent' });
  });

  it('answers a search from the token matches it remembers as a fresh index answers it', () => {
    const queries = [
      'Youssef Abdelkarim Al Fakhouri',
      'Yusuf al-Fakhouri',
      'Mamadou Kouyate',
      'M. L. Kouyate',
      'Sahel Gold Trading',
      'عبد الرحمن ولد سيدي',
      'Folasade Adebayo',
    ].map((fullName) => ({ fullName, threshold: 0.5 }));
    const first = queries.map((q) => index.search(q));
    const again = queries.map((q) => index.search(q));
    const fresh = ScreeningIndex.build(entries, { OFAC_SDN: 'v3', CUSTOM_PEP_NG: 'v1', UN_SC: 'v2' });
    expect(again).toEqual(first);
    expect(queries.map((q) => fresh.search(q))).toEqual(first);
    expect(first.every((hits) => hits.length > 0)).toBe(true);
  });

  it('searches an entity name longer than the words it reads, legal forms among them', () => {
    // the query's tokens are cut at MAX_QUERY_TOKENS: its words (kept to read initials) were not,
    // and initials read past the cut threw (a screening of a long company name answered 500)
    const long = ScreeningIndex.build([entry({ externalId: '9', entityType: 'ENTITY', names: [{ full: 'CSRI DOO', type: 'PRIMARY' }] })], {
      OFAC_SDN: 'v1',
    });
    const fullName = 'ALPHA BETA GAMMA DELTA OMEGA KAPPA SIGMA THETA IOTA LAMBDA NU XI DOO CENTRAL SCIENTIFIC RESEARCH INSTITUTE';
    expect(() => long.search({ fullName, entityType: 'ENTITY', threshold: 0.3 })).not.toThrow();
  });

  it('finds Arabic-script queries through the original-script names', () => {
    const hits = index.search({ fullName: 'عبد الرحمن ولد سيدي' });
    expect(hits[0]).toMatchObject({ externalId: 'QDi.9', score: 1 });
  });

  it('applies qualifiers: exact DOB and document raise, a distant DOB lowers below the threshold', () => {
    const base = index.search({ fullName: 'Yusuf al-Fakhouri', threshold: 0 })[0];
    const dob = index.search({ fullName: 'Yusuf al-Fakhouri', dateOfBirth: '1971-03-12' })[0];
    expect(dob.score).toBeGreaterThan(base.score);
    expect(dob.explanation.qualifiers).toEqual([{ kind: 'dateOfBirth', effect: 0.05, detail: expect.stringContaining('exact') }]);
    const doc = index.search({ fullName: 'Yusuf al-Fakhouri', documentNumber: 'ly 447-8120', nationality: 'Libya' })[0];
    expect(doc.explanation.qualifiers.map((q) => [q.kind, q.effect])).toEqual([
      ['nationality', 0.03],
      ['documentNumber', 0.15],
    ]);
    const far = index.search({ fullName: 'Yusuf Abd al-Karim al-Fakhouri', dateOfBirth: '1990-01-01', threshold: 0 })[0];
    expect(far.explanation.qualifiers[0]).toMatchObject({ kind: 'dateOfBirth', effect: -0.2 });
    expect(index.search({ fullName: 'Yusuf Abd al-Karim al-Fakhouri', dateOfBirth: '1990-01-01' })).toEqual([]);
    const nat = index.search({ fullName: 'Yusuf Abd al-Karim al-Fakhouri', nationality: 'FR', threshold: 0 })[0];
    expect(nat.explanation.qualifiers).toEqual([{ kind: 'nationality', effect: -0.05, detail: 'nationality FR not among LY' }]);
  });

  it('filters by kind, source and entity type; honours threshold and limit', () => {
    expect(index.search({ fullName: 'Folasade Adebayo' })[0]).toMatchObject({ kind: 'PEP', addedDate: '2024-01-15' });
    expect(index.search({ fullName: 'Folasade Adebayo', kinds: ['SANCTIONS'] })).toEqual([]);
    expect(index.search({ fullName: 'Folasade Adebayo', sources: ['OFAC_SDN'] })).toEqual([]);
    expect(index.search({ fullName: 'Sahel Gold Trading', entityType: 'ENTITY' })[0].externalId).toBe('3');
    expect(index.search({ fullName: 'Sahel Gold Trading', entityType: 'INDIVIDUAL' })).toEqual([]);
    expect(index.search({ fullName: 'Mamadou Kouyate', threshold: 0.99 })).toEqual([]);
    expect(index.search({ fullName: 'Mamadou Kouyate', threshold: 0.5, limit: 1 })).toHaveLength(1);
  });

  describe('a name one of whose tokens is common on the lists', () => {
    // 300 listed Mohameds: a screening of any Mohamed looked at each of them
    const crowd = [
      ...Array.from({ length: 300 }, (_, i) =>
        entry({ externalId: `M${i}`, names: [{ full: `Mohamed ${String.fromCharCode(97 + (i % 26))}${i}x${i * 7}`, type: 'PRIMARY' }] }),
      ),
      entry({ externalId: 'OK', names: [{ full: 'OKAFOR, Mohamed', type: 'PRIMARY' }] }),
      entry({ externalId: 'AK', names: [{ full: 'A. Kabir', type: 'PRIMARY' }] }),
      entry({
        externalId: 'AH',
        names: [
          { full: 'AHMAD MAHMOOD HASSAN', type: 'PRIMARY' },
          { full: 'AHMED MAHMOUD HASSAN', type: 'ALIAS' },
        ],
      }),
    ];
    const crowded = ScreeningIndex.build(crowd, { OFAC_SDN: 'v1' });

    it('is looked for through its rarer token: the common one only adds to the names that one found', () => {
      const hits = crowded.search({ fullName: 'Mohamed Okafor', threshold: 0.85 });
      expect(hits.map((h) => h.externalId)).toEqual(['OK']);
      expect(crowded.lastStats.candidates).toBeLessThan(10);
      // at a threshold one token may reach on its own, every Mohamed is a candidate again
      crowded.search({ fullName: 'Mohamed Okafor', threshold: 0.5 });
      expect(crowded.lastStats.candidates).toBeGreaterThan(300);
    });

    it('still finds a listed name the rarer token matches only as an initial', () => {
      expect(crowded.search({ fullName: 'Adaeze Kabore', threshold: 0.75 }).map((h) => h.externalId)).toEqual(['AK']);
    });

    it("names, of an entry's names scoring the same, the first in the list's order", () => {
      const [hit] = crowded.search({ fullName: 'Amadou Hassan', threshold: 0.75 });
      expect(hit).toMatchObject({ externalId: 'AH', matchedName: 'AHMAD MAHMOOD HASSAN' });
    });
  });

  it('discounts weak aliases and finds nothing for unrelated or empty names', () => {
    const weak = index.search({ fullName: 'Abu Karim', threshold: 0 }).find((h) => h.externalId === '1')!;
    expect(weak.matchedName).toBe('Abu Karim');
    expect(weak.score).toBeLessThan(1);
    expect(index.search({ fullName: 'Completely Unrelated Person' })).toEqual([]);
    expect(index.search({ fullName: '  ,. ' })).toEqual([]);
    expect(index.size).toBe(5);
  });
});
