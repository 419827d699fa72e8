import { compareNames } from './name-score.js';
import { prepareName } from './normalize.js';
import { ScreeningIndex } from './screening-index.js';
import type { ListEntry, MatchRule } from '../types.js';

/** The named rules of issue 15, one family at a time: what must match, what must not, and which rule fired. */

const ENTITY = { entityType: 'ENTITY' };
const score = (a: string, b: string, opts: { entityType?: string } = {}) => compareNames(a, b, opts).score;
const rules = (a: string, b: string, opts: { entityType?: string } = {}) => compareNames(a, b, opts).rules.map((r) => r.rule);
const fired = (a: string, b: string, rule: MatchRule, opts: { entityType?: string } = {}) =>
  compareNames(a, b, opts).rules.find((r) => r.rule === rule);

describe('company legal forms', () => {
  it('reads full, abbreviated, glued and misspelt forms as one form (ISO 20275 and translations)', () => {
    for (const [a, b] of [
      ['Siemens AG', 'Siemens Aktiengesellschaft'],
      ['SiemensAG', 'Siemens Aktiengeselschaft'],
      ['Acme LLC', 'Acme Limited Liability Company'],
      ['OAO Gazprom Neft', 'Gazprom Neft Open Joint Stock Company'],
      ['OJSC Gazprom Neft', 'Gazprom Neft OAO'],
      ['Polmex Sp. z o.o.', 'Polmex Spółka z ograniczoną odpowiedzialnością'],
      ['Sahel Gold S.A.', 'Sahel Gold Société Anonyme'],
      ['Kabul Trading Ltd', 'Kabul Trading Limited'],
    ])
      expect({ a, b, score: score(a, b, ENTITY) }).toEqual({ a, b, score: 1 });
    expect(rules('SiemensAG', 'Siemens Aktiengeselschaft', ENTITY)).toContain('legalForm');
    expect(prepareName('SiemensAG', ENTITY).forms).toEqual(['ag']);
  });

  it('lowers the score when the forms differ (AG / GmbH), without deciding alone', () => {
    const r = compareNames('Siemens AG', 'Siemens GmbH', ENTITY);
    expect(r.score).toBeLessThan(1);
    expect(r.score).toBeGreaterThanOrEqual(0.85);
    expect(r.rules).toContainEqual({ rule: 'legalFormDiffers', factor: 0.93, detail: 'ag ≠ gmbh' });
    expect(score('Siemens AG', 'Siemens', ENTITY)).toBe(1); // no form on one side: nothing to compare
  });

  it('reads a dotted form however its dots and spaces split it, and short forms only as written', () => {
    for (const name of ['Lunar, S. de R.L. de C.V.', 'Lunar S. de R. L. de C. V.', 'Lunar S DE RL DE CV'])
      expect({ name, normalized: prepareName(name, ENTITY).normalized }).toEqual({ name, normalized: 'lunar' });
    expect(prepareName('Polmex Sp. z o. o.', ENTITY).normalized).toBe('polmex');
    // the forms set aside, the distinctive parts differ: no match
    expect(score('APH S. de R.L. de C.V.', 'Envigh, S. de R.L. de C.V.', ENTITY)).toBeLessThan(0.85);
    // "aph" reads like the form AF when folded, but short forms are compared as written
    expect(prepareName('APH S. de R.L. de C.V.', ENTITY).normalized).toBe('aph');
    // a one-letter conjunction before a form is no initial
    expect(score('Saabf y Compania S.C.A.', 'Saabf Compania S.C.A.', ENTITY)).toBeGreaterThanOrEqual(0.85);
  });

  it('takes a country or branch word added to an entity name for another entity', () => {
    expect(score('Banco Santander', 'Banco Santander Mexico', ENTITY)).toBeLessThan(0.85);
    expect(rules('Banco Santander', 'Banco Santander Mexico', ENTITY)).toContain('entityQualifier');
    expect(score('Kabul Bank', 'Kabul Bank Branch', ENTITY)).toBeLessThan(0.85);
    expect(score('Banco Santander', 'Santander Banco', ENTITY)).toBeGreaterThanOrEqual(0.85);
  });

  it('reads an elided article written apart as the word it was glued to (D IVOIRE / d’Ivoire)', () => {
    expect(score('Société Générale Côte d’Ivoire SA', 'SOCIETE GENERALE COTE D IVOIRE', ENTITY)).toBe(1);
    expect(score("L'Oreal SA", 'L OREAL', ENTITY)).toBe(1);
    expect(score('J Smith Trading', 'Jsmith Trading', ENTITY)).toBeLessThan(1); // a consonant stays an initial
  });
});

describe('numbers', () => {
  it('reads number words in the common languages as digits', () => {
    for (const [a, b] of [
      ['Brigade Forty-Four', 'Brigade 44'],
      ['Brigade quarante-quatre', 'Brigade 44'],
      ['Brigade sorok chetyre', 'Brigade 44'],
      ['Second Academy of Natural Sciences', '2nd Academy of Natural Sciences'],
      ['Argo II', 'Argo 2'],
    ])
      expect({ a, b, score: score(a, b, ENTITY) }).toEqual({ a, b, score: 1 });
    expect(fired('Brigade Forty-Four', 'Brigade 44', 'numberWords', ENTITY)?.detail).toBe('forty four ~ 44');
  });

  it('takes names that differ only by their number for different vessels and units', () => {
    expect(score('Snow Storm 1', 'Snow Storm 2', { entityType: 'VESSEL' })).toBeLessThan(0.85);
    expect(rules('Snow Storm 1', 'Snow Storm 2', { entityType: 'VESSEL' })).toContain('numberDiffers');
    expect(score('Nord Stream AG', 'Nord Stream 2 AG', ENTITY)).toBeLessThan(0.85);
    expect(
      score('Joint Stock Company 99 Plant of Aviation Equipment', 'Joint Stock Company 98 Plant of Aviation Equipment', ENTITY),
    ).toBeLessThan(0.85);
    // "Un" is no French "one"
    expect(score('Kim Jong Un', 'Kim Jong 1')).toBeLessThan(0.85);
  });
});

describe('look-alike characters', () => {
  it('reads digits used as letters, confusable letters of other scripts and dotted acronyms', () => {
    expect(score('Ig0r Sech1n', 'Igor Sechin')).toBe(1);
    expect(fired('Ig0r Sech1n', 'Igor Sechin', 'lookalike')?.detail).toBe('ig0r read as igor');
    expect(score('Ivаn Petrоv', 'Ivan Petrov')).toBe(1); // Cyrillic а and о
    expect(rules('Ivаn Petrоv', 'Ivan Petrov')).toEqual(['lookalike', 'lookalike']);
    expect(score('L.X.C', 'LXC', ENTITY)).toBe(1);
    expect(score('Ａｃｍｅ Ｍｉｎｉｎｇ', 'Acme Mining', ENTITY)).toBe(1); // full-width letters
  });

  it('keeps numbers that are numbers, and Cyrillic names Cyrillic', () => {
    expect(prepareName('T72 Mig29', ENTITY).normalized).toBe('t72 mig29');
    expect(prepareName('Сергей Иванов').normalized).toBe('sergey ivanov');
    // digits read as letters only one at a time in an otherwise alphabetic word
    expect(prepareName('Airbus A320neo', ENTITY).normalized).toBe('airbus a320neo');
    expect(prepareName('Su30mk Avia', ENTITY).normalized).toBe('su30mk avia');
    expect(prepareName('Airbus A320neo', ENTITY).notes).toEqual([]);
  });

  it('reads look-alike letters only inside one word mixing scripts, when each has a Latin look-alike', () => {
    // two words joined by a hyphen, each in its own script: transliterated, no look-alike
    expect(rules('Gazprom-Нефть', 'Gazprom Neft', ENTITY)).not.toContain('lookalike');
    // a Cyrillic letter with no Latin look-alike (ж) says the word is no disguised Latin one
    expect(prepareName('Pаvжel').notes?.map((n) => n.rule)).not.toContain('lookalike');
  });
});

describe('acronyms', () => {
  it('matches the initials of the significant words', () => {
    expect(score('PLA', "People's Liberation Army", ENTITY)).toBeGreaterThanOrEqual(0.85);
    expect(fired('PLA', "People's Liberation Army", 'acronym', ENTITY)?.detail).toBe('pla ~ peoples liberation army');
    expect(score('NPO Promodel', 'Nauchno Proizvodstvennoe Obyedinenie Promodel', ENTITY)).toBeGreaterThanOrEqual(0.85);
    expect(score('PJSC UAC', 'Public Joint Stock Company United Aircraft Corporation', ENTITY)).toBeGreaterThanOrEqual(0.85);
  });

  it('never reads initials from a person’s name, nor other initials', () => {
    expect(score('SKT', 'Seydou Khadija Traoré')).toBeLessThan(0.85);
    expect(score('PLO', "People's Liberation Army", ENTITY)).toBeLessThan(0.85);
    expect(score('PLA', 'Pedro Lopez Alvarez', { entityType: 'INDIVIDUAL' })).toBeLessThan(0.85);
  });
});

describe('scripts', () => {
  it('matches Korean, Chinese, Cyrillic and Arabic names to their Latin forms', () => {
    for (const [a, b] of [
      ['김정은', 'Kim Jong Un'],
      ['김정은', 'Gim Jeong-eun'],
      ['이수용', 'Ri Su Yong'],
      ['习近平', 'Xi Jinping'],
      ['Владимир Путин', 'Vladimir Putin'],
      ['رشيد طعان كاظم', 'Rashid Taan Kathim'],
      ['عبدالمنان نیازی', 'Abdul Manan Niazi'],
    ])
      expect({ a, b, match: score(a, b) >= 0.85 }).toEqual({ a, b, match: true });
    expect(rules('김정은', 'Kim Jong Un')).toContain('transliteration');
  });

  it('takes a one-syllable difference between two CJK names for another person', () => {
    expect(score('김정은', '김종은')).toBeLessThan(0.85);
    expect(score('김정은', '김정')).toBeLessThan(0.85);
    expect(rules('김정은', '김정')).toContain('syllableDiffers');
    expect(score('张伟', '张为')).toBeLessThan(0.85);
  });

  it('takes one more given name before an Arabic name for the next generation (nasab)', () => {
    expect(score('علي برزان إبراهيم حسن التكريتي', 'برزان إبراهيم حسن التكريتي')).toBeLessThan(0.85);
    expect(rules('علي برزان إبراهيم حسن التكريتي', 'برزان إبراهيم حسن التكريتي')).toContain('nasab');
  });
});

describe('nicknames and given-name order', () => {
  it('matches a given name and its nickname or short form', () => {
    expect(score('Ted Smith', 'Theodore Smith')).toBeGreaterThanOrEqual(0.85);
    expect(fired('Ted Smith', 'Theodore Smith', 'nickname')?.detail).toBe('ted ~ theodore');
    expect(score('Peggy Jones', 'Margaret Jones')).toBeGreaterThanOrEqual(0.85);
    // two names of one length the list links both ways are different names
    expect(score('Robert Smith', 'Rupert Smith')).toBeLessThan(0.85);
  });

  it('does not give swapped given names 1.0 without a family name to say which is which', () => {
    const r = compareNames('Friedrich Hans', 'Hans Friedrich');
    expect(r.score).toBeLessThan(1);
    expect(r.rules).toContainEqual({ rule: 'orderSwap', factor: 0.95, detail: 'friedrich hans / hans friedrich' });
    expect(score('MÜLLER, Hans', 'Hans Müller')).toBe(1); // the family name is known: no swap
  });
});

describe('screening index', () => {
  const entry = (externalId: string, entityType: ListEntry['entityType'], ...names: string[]): ListEntry => ({
    source: 'OFAC_SDN',
    kind: 'SANCTIONS',
    externalId,
    entityType,
    names: names.map((full, i) => ({ full, type: i ? 'ALIAS' : 'PRIMARY' })),
    datesOfBirth: [],
    nationalities: [],
    documents: [],
    programs: [],
  });
  const index = ScreeningIndex.build(
    [
      entry('1', 'ENTITY', "PEOPLE'S LIBERATION ARMY"),
      entry('2', 'ENTITY', 'BRIGADE FORTY-FOUR'),
      entry('3', 'INDIVIDUAL', '김정은'),
      entry('4', 'INDIVIDUAL', 'SMITH, Theodore'),
      entry('5', 'ENTITY', 'SIEMENS AKTIENGESELLSCHAFT'),
      entry('6', 'VESSEL', 'SNOW STORM 1'),
      entry('7', 'ENTITY', 'NAUCHNO PROIZVODSTVENNOE OBYEDINENIE PROMODEL'),
      entry('8', 'INDIVIDUAL', 'SECHIN, Igor Ivanovich'),
    ],
    { OFAC_SDN: 'v1' },
  );
  const found = (fullName: string) => index.search({ fullName }).map((h) => [h.externalId, h.explanation.rules?.map((r) => r.rule) ?? []]);

  it('finds names through every family and says which rule fired', () => {
    expect(found('PLA')).toEqual([['1', ['acronym']]]);
    expect(found('NPO Promodel')).toEqual([['7', ['acronym']]]);
    expect(found('Brigade 44')).toEqual([['2', ['numberWords']]]);
    expect(found('Kim Jong Un')[0]).toEqual(['3', expect.arrayContaining(['transliteration'])]);
    expect(found('Ted Smith')).toEqual([['4', ['nickname']]]);
    expect(found('SiemensAG')[0][0]).toBe('5');
    expect(found('Ig0r Sech1n')).toEqual([['8', ['lookalike', 'lookalike']]]);
    expect(found('Snow Storm 2')).toEqual([]);
    expect(found('Seydou Khadija Traoré')).toEqual([]);
  });
});
