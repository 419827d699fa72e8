import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseList, detectFormat } from './parse.js';
import { parseDates } from './util.js';
import { AppError } from '../../platform/errors.js';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const file = (rel: string) => ({ name: path.basename(rel), content: readFileSync(path.join(FIXTURES, rel)) });
const byId = <T extends { externalId: string }>(entries: T[], id: string) => entries.find((e) => e.externalId === id)!;

function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected an error');
}

describe('OFAC SDN CSV set (sdn.csv + alt.csv + add.csv)', () => {
  const [list] = parseList([file('ofac/sdn.csv'), file('ofac/alt.csv'), file('ofac/add.csv')]);

  it('is one OFAC_SDN list whatever the file order, ignoring -0-, CRLF and the trailing 0x1A', () => {
    expect(list.source).toBe('OFAC_SDN');
    expect(list.format).toBe('OFAC_CSV');
    expect(list.entries.map((e) => e.externalId)).toEqual(['90001', '90002', '90003', '90004', '90005']);
    const reversed = parseList([file('ofac/add.csv'), file('ofac/alt.csv'), file('ofac/sdn.csv')]);
    expect(reversed[0].entries).toEqual(list.entries);
    expect(JSON.stringify(list.entries)).not.toContain('-0-');
    expect(JSON.stringify(list.entries)).not.toContain('\u001a');
  });

  it('reads remarks: dates of birth (exact, alt., ranges), nationality, documents, weak aliases', () => {
    const p = byId(list.entries, '90001');
    expect(p.entityType).toBe('INDIVIDUAL');
    expect(p.datesOfBirth).toEqual(['1971-03-12', '1972']);
    expect(p.nationalities).toEqual(['LY']);
    expect(p.documents).toEqual([{ type: 'Passport', number: 'LY4478120', country: 'LY' }]);
    expect(p.names).toEqual(
      expect.arrayContaining([
        { full: 'AL-FAKHOURI, Yusuf Abd al-Karim', type: 'PRIMARY' },
        { full: 'Abu Karim', type: 'WEAK_ALIAS' },
        { full: 'AL-FAKHURI, Youssef Abdelkarim', type: 'ALIAS' },
        { full: 'FAKHOURI, Yousef', type: 'ALIAS' },
      ]),
    );
    expect(p.addresses).toEqual([{ text: 'Tripoli, Libya', country: 'LY' }]);
    const k = byId(list.entries, '90002');
    expect(k.datesOfBirth).toEqual(['1980', '1981', '1982']);
    expect(k.programs).toEqual(['SDGT', 'GLOMAG']);
    expect(k.documents).toEqual([{ type: 'National ID No.', number: 'ML-220934', country: 'ML' }]);
  });

  it('types entities (-0-) and vessels (flag as nationality), and skips aliases of unknown entries', () => {
    expect(byId(list.entries, '90003').entityType).toBe('ENTITY');
    const v = byId(list.entries, '90004');
    expect(v.entityType).toBe('VESSEL');
    expect(v.nationalities).toEqual(['PA']);
    expect(JSON.stringify(list.entries)).not.toContain('NOT IN THE PRIMARY FILE');
  });

  it('refuses alias files without their primary file', () => {
    const err = thrown(() => parseList([file('ofac/alt.csv')]));
    expect(err.code).toBe('BAD_USER_INPUT');
  });
});

describe('OFAC XML (SDN and consolidated) and the consolidated CSV', () => {
  it('reads sdnEntry: names, strong/weak akas, ids (not Gender), DOB, nationality, vessel flag', () => {
    const [list] = parseList([file('ofac/sdn.xml')]);
    expect(list.source).toBe('OFAC_SDN');
    expect(list.format).toBe('OFAC_XML');
    const p = byId(list.entries, '90001');
    expect(p.names[0]).toEqual({ full: 'AL-FAKHOURI, Yusuf Abd al-Karim', type: 'PRIMARY' });
    expect(p.names).toContainEqual({ full: 'Abu Karim', type: 'WEAK_ALIAS' });
    expect(p.documents).toEqual([{ type: 'Passport', number: 'LY4478120', country: 'LY' }]);
    expect(p.datesOfBirth).toEqual(['1971-03-12']);
    expect(p.nationalities).toEqual(['LY']);
    expect(byId(list.entries, '90004').nationalities).toEqual(['PA']);
  });

  it('tells the consolidated list from the SDN list (file name, else its programs)', () => {
    const [xml] = parseList([file('ofac/consolidated.xml')]);
    expect(xml.source).toBe('OFAC_CONSOLIDATED');
    expect(byId(xml.entries, '91002').documents).toEqual([{ type: 'ISIN', number: 'GH0000000123' }]);
    const [csv] = parseList([file('ofac/cons_prim.csv'), file('ofac/cons_alt.csv')]);
    expect(csv.source).toBe('OFAC_CONSOLIDATED');
    expect(byId(csv.entries, '91001').names.map((n) => n.full)).toEqual(['BOATENG, Kwaku Agyei', 'BOATENG, Kwaku']);
    const renamed = parseList([{ name: 'list.csv', content: readFileSync(path.join(FIXTURES, 'ofac/cons_prim.csv')) }]);
    expect(renamed[0].source).toBe('OFAC_CONSOLIDATED');
    const forced = parseList([file('ofac/cons_prim.csv')], { source: 'OFAC_SDN' });
    expect(forced[0].source).toBe('OFAC_SDN');
  });
});

describe('UN Security Council consolidated XML', () => {
  const [list] = parseList([file('un/consolidated.xml')]);

  it('reads individuals: name parts, original script, good/low aliases, DOB kinds, documents, listing date', () => {
    expect(list.source).toBe('UN_SC');
    const p = byId(list.entries, 'QDi.901');
    expect(p.names).toEqual([
      { full: 'ABDERRAHMANE OULD SIDI MOHAMED', type: 'PRIMARY' },
      { full: 'عبد الرحمن ولد سيدي محمد', type: 'ORIGINAL_SCRIPT' },
      { full: 'Abd al-Rahman Ould Sidi Muhammad', type: 'ALIAS' },
      { full: 'Abou Sidi', type: 'WEAK_ALIAS' },
    ]);
    expect(p.datesOfBirth).toEqual(['1976-09-30', '1977', '1978']);
    expect(p.nationalities).toEqual(['MR']);
    expect(p.documents).toEqual([{ type: 'Passport', number: 'B 0412876', country: 'MR' }]);
    expect(p.addedDate).toBe('2019-05-06');
    expect(p.programs).toEqual(['Al-Qaida']);
    expect(byId(list.entries, 'KPi.901').nationalities).toEqual(['RU']);
  });

  it('reads entities and splits an acronym in parentheses into an alias', () => {
    const e = byId(list.entries, 'QDe.901');
    expect(e.entityType).toBe('ENTITY');
    expect(e.names.map((n) => n.full)).toEqual(['SAHARA RELIEF FOUNDATION', 'SRF', 'Fondation Secours du Sahara']);
    expect(e.addresses).toEqual([{ text: 'Avenue de la Paix, Niamey, Niger', country: 'NE' }]);
  });
});

describe('EU financial sanctions XML', () => {
  it('reads sanctionEntity: nameAlias wholeName (strong/weak), birthdate, citizenship, identification, programme', () => {
    const [list] = parseList([file('eu/fsf.xml')]);
    expect(list.source).toBe('EU_FSF');
    const p = byId(list.entries, '900101');
    expect(p.entityType).toBe('INDIVIDUAL');
    expect(p.names).toEqual([
      { full: 'Aminata Sangaré', type: 'PRIMARY' },
      { full: 'Aminata Sangare Coulibaly', type: 'ALIAS' },
      { full: 'Mama Sangare', type: 'WEAK_ALIAS' },
    ]);
    expect(p.datesOfBirth).toEqual(['1974-02-17']);
    expect(p.nationalities).toEqual(['ML']);
    expect(p.documents).toEqual([{ type: 'National passport', number: 'AA1928374', country: 'ML' }]);
    expect(p.programs).toEqual(['MLI']);
    expect(p.addedDate).toBe('2023-07-24');
    expect(byId(list.entries, '900202').entityType).toBe('ENTITY');
  });
});

describe('UK sanctions list CSV (OFSI ConList)', () => {
  it('groups rows by Group ID: primary name, aliases by quality, DOB with unknown parts, passport', () => {
    const [list] = parseList([file('uk/ConList.csv')]);
    expect(list.source).toBe('UK_OFSI');
    const p = byId(list.entries, '19001');
    expect(p.entityType).toBe('INDIVIDUAL');
    expect(p.names).toEqual([
      { full: 'MENSAH, Kofi Adjei', type: 'PRIMARY' },
      { full: 'MENSAH, Kofi', type: 'ALIAS' },
      { full: 'MENSA, Kofi Adjei', type: 'WEAK_ALIAS' },
    ]);
    expect(p.datesOfBirth).toEqual(['1966']);
    expect(p.nationalities).toEqual(['GH']);
    expect(p.documents).toEqual([{ type: 'Passport', number: 'G1234567', country: 'GH' }]);
    expect(p.addedDate).toBe('2022-05-10');
    expect(byId(list.entries, '19002').names.map((n) => n.full)).toEqual(['ATLANTIC HORIZON SHIPPING LTD', 'HORIZON ATLANTIQUE']);
  });
});

describe('custom lists (CSV and JSON)', () => {
  it('reads the CSV format: source from the file name, ;-separated cells, documents TYPE:NUMBER:COUNTRY', () => {
    const [list] = parseList([file('custom/pep-ng.csv')]);
    expect(list.source).toBe('CUSTOM_PEP_NG');
    expect(list.format).toBe('CUSTOM_CSV');
    const p = byId(list.entries, 'PEP-0001');
    expect(p.kind).toBe('PEP');
    expect(p.names.map((n) => n.full)).toEqual(['ADEBAYO, Folasade Omotola', 'Fola Adebayo', 'Folasade Adebayo-Okoro']);
    expect(p.documents).toEqual([{ type: 'NIN', number: '12345678901', country: 'NG' }]);
    expect(byId(list.entries, 'PEP-0003').entityType).toBe('ENTITY');
    expect(parseList([file('custom/pep-ng.csv')], { source: 'CUSTOM_NIGERIA_PEP' })[0].source).toBe('CUSTOM_NIGERIA_PEP');
  });

  it('reads the JSON format: list name and kind at the top, per-entry kind overrides', () => {
    const [list] = parseList([file('custom/adverse-media.json')]);
    expect(list.source).toBe('CUSTOM_ADVERSE_MEDIA_WEST_AFRICA');
    expect(byId(list.entries, 'AM-17')).toMatchObject({ kind: 'ADVERSE_MEDIA', nationalities: ['ML', 'FR'], datesOfBirth: ['1983-05-21'] });
    expect(byId(list.entries, 'AM-18').kind).toBe('LAW_ENFORCEMENT');
  });

  it('needs a kind, and reports invalid rows as validation errors', () => {
    const noKind = 'id,name\nX1,Some Person\n';
    expect(thrown(() => parseList([{ name: 'watch.csv', content: noKind }])).code).toBe('VALIDATION_FAILED');
    expect(parseList([{ name: 'watch.csv', content: noKind }], { kind: 'LAW_ENFORCEMENT' })[0].entries[0].kind).toBe('LAW_ENFORCEMENT');
    const bad = JSON.stringify({ list: 'x', kind: 'PEP', entries: [{ id: 'a', name: '' }] });
    const err = thrown(() => parseList([{ name: 'x.json', content: bad }]));
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.message).toContain('entries.0.name');
    expect(thrown(() => parseList([{ name: 'x.json', content: '{"list": ' }])).code).toBe('BAD_USER_INPUT');
  });
});

describe('format detection', () => {
  it('detects each format from content and refuses unknown files', () => {
    expect(detectFormat(readFileSync(path.join(FIXTURES, 'ofac/sdn.csv'), 'utf8'))).toBe('OFAC_PRIMARY');
    expect(detectFormat(readFileSync(path.join(FIXTURES, 'ofac/alt.csv'), 'utf8'))).toBe('OFAC_ALT');
    expect(detectFormat(readFileSync(path.join(FIXTURES, 'ofac/add.csv'), 'utf8'))).toBe('OFAC_ADD');
    expect(detectFormat(readFileSync(path.join(FIXTURES, 'un/consolidated.xml'), 'utf8'))).toBe('UN_XML');
    expect(detectFormat(readFileSync(path.join(FIXTURES, 'eu/fsf.xml'), 'utf8'))).toBe('EU_XML');
    expect(detectFormat(readFileSync(path.join(FIXTURES, 'uk/ConList.csv'), 'utf8'))).toBe('UK_CSV');
    expect(thrown(() => parseList([{ name: 'notes.txt', content: 'hello world' }])).code).toBe('BAD_USER_INPUT');
    expect(thrown(() => parseList([{ name: 'x.xml', content: '<html></html>' }])).code).toBe('BAD_USER_INPUT');
  });

  it('normalises the date forms lists use', () => {
    expect(parseDates('10 Dec 1948')).toEqual(['1948-12-10']);
    expect(parseDates('Dec 1948')).toEqual(['1948-12']);
    expect(parseDates('circa 1958')).toEqual(['1958']);
    expect(parseDates('00/00/1966')).toEqual(['1966']);
    expect(parseDates('00/04/1966')).toEqual(['1966-04']);
    expect(parseDates('17/02/1974')).toEqual(['1974-02-17']);
    expect(parseDates('-0- ')).toEqual([]);
  });
});
