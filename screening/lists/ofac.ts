import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import type { EntityType, ListEntry } from '../types.js';
import { clean, countries, doc, EntryNames, finishEntry, parseDates, type Doc } from './util.js';

/**
 * OFAC lists (https://ofac.treasury.gov/sanctions-list-service):
 * - SDN CSV set: sdn.csv (ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign, Vess_type, Tonnage,
 *   GRT, Vess_flag, Vess_owner, Remarks), alt.csv (ent_num, alt_num, alt_type, alt_name,
 *   alt_remarks), add.csv (ent_num, add_num, address, city/state/postal, country, add_remarks).
 *   No header, `-0-` = null, CRLF, a trailing 0x1A. Dates of birth, nationalities, documents and
 *   weak aliases (a.k.a. 'X') live in the free-text Remarks.
 * - the consolidated (non-SDN) list: cons_prim.csv / cons_alt.csv / cons_add.csv, same columns.
 * - SDN and consolidated XML: sdnList/sdnEntry (uid, firstName, lastName, sdnType, programList,
 *   akaList/aka{category strong|weak}, idList/id, dateOfBirthList, nationalityList,
 *   citizenshipList, addressList, remarks).
 */

const ENTITY_TYPES: Record<string, EntityType> = { individual: 'INDIVIDUAL', entity: 'ENTITY', vessel: 'VESSEL', aircraft: 'AIRCRAFT' };

function entityType(raw: string | undefined): EntityType {
  return raw ? (ENTITY_TYPES[raw.toLowerCase()] ?? 'UNKNOWN') : 'ENTITY';
}

export function splitPrograms(raw: string | undefined): string[] {
  const s = clean(raw);
  if (!s) return [];
  return s
    .replace(/^\[|\]$/g, '')
    .split(/\]\s*\[/)
    .map((p) => p.trim())
    .filter(Boolean);
}

export interface RemarkFacts {
  datesOfBirth: string[];
  nationalities: string[];
  documents: Doc[];
  weakAliases: string[];
}

const DOC_IN_REMARK =
  /^(?:alt\.\s+)?((?:[A-Z][A-Za-z.'/&-]*\s+){0,5}?(?:Passport|No\.|Number|ID|#|Identification|Code|License|Licence|Card|IMO|MMSI|SWIFT\/BIC|RFC|NIT|C\.U\.R\.P\.|CURP|D\.N\.I\.|DNI|Cedula|RUC|LEI|ISIN|Certificate))\s+([A-Za-z0-9][A-Za-z0-9\-/. ]*?)\s*(?:\(([^)]+)\))?\s*\.?$/;

/** Facts OFAC writes into the Remarks column of the CSV files. */
export function parseRemarks(remarks: string | undefined): RemarkFacts {
  const facts: RemarkFacts = { datesOfBirth: [], nationalities: [], documents: [], weakAliases: [] };
  const s = clean(remarks);
  if (!s) return facts;
  for (const raw of s.split(/;\s+/)) {
    const part = raw.trim().replace(/\.$/, '');
    let m: RegExpExecArray | null;
    if ((m = /^(?:alt\.\s+)?DOB\s+(.+)$/i.exec(part))) facts.datesOfBirth.push(...parseDates(m[1]));
    else if ((m = /^(?:alt\.\s+)?(?:nationality|citizen)\s+(?:of\s+registration\s+)?(.+)$/i.exec(part))) facts.nationalities.push(m[1]);
    else if ((m = /^a\.k\.a\.\s+(.+)$/i.exec(part))) {
      for (const w of m[1].matchAll(/'([^']+)'/g)) facts.weakAliases.push(w[1]);
    } else if ((m = DOC_IN_REMARK.exec(part))) {
      // "Tax ID No. 123": the "No." / "#" belongs to the type
      const lead = /^(No\.|#|Number)\s*/i.exec(m[2]);
      const d = doc(lead ? `${m[1]} ${lead[1]}` : m[1], lead ? m[2].slice(lead[0].length) : m[2], m[3]);
      if (d && /\d/.test(d.number)) facts.documents.push(d);
    }
  }
  facts.nationalities = countries(facts.nationalities);
  return facts;
}

function csvRows(text: string): string[][] {
  const body = text.replace(/\x1A/g, '').replace(/^\uFEFF/, '');
  return parseCsv(body, { relax_quotes: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
}

/** Is this CSV an OFAC primary file (sdn.csv / cons_prim.csv)? */
export function looksLikeOfacPrimary(text: string): boolean {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return /^\d+,"[^"]*",/.test(first) && (first.match(/-0-/g)?.length ?? 0) >= 3;
}

/** alt.csv: ent_num, alt_num, "aka"|"fka"|"nka", name, remarks */
export function looksLikeOfacAlt(text: string): boolean {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return /^\d+,\d+,"?(aka|fka|nka)"?,/i.test(first);
}

/** add.csv: ent_num, add_num, address, city, country, remarks (6 columns) */
export function looksLikeOfacAdd(text: string): boolean {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  if (!/^\d+,\d+,/.test(first) || looksLikeOfacAlt(text)) return false;
  try {
    return (csvRows(first)[0]?.length ?? 0) === 6;
  } catch {
    return false;
  }
}

export function parseOfacCsv(source: string, primary: string, alt?: string, add?: string): ListEntry[] {
  const entries = new Map<string, { entry: ListEntry; names: EntryNames }>();
  for (const r of csvRows(primary)) {
    const id = clean(r[0]);
    const name = clean(r[1]);
    if (!id || !name || !/^\d+$/.test(id)) continue;
    const facts = parseRemarks(r[11]);
    const names = new EntryNames();
    const type = entityType(clean(r[2]));
    names.add(name, 'PRIMARY', { splitAcronym: type !== 'INDIVIDUAL' });
    for (const w of facts.weakAliases) names.add(w, 'WEAK_ALIAS');
    const vesselFlag = clean(r[9]);
    entries.set(id, {
      names,
      entry: {
        source,
        kind: 'SANCTIONS',
        externalId: id,
        entityType: type,
        names: [],
        datesOfBirth: facts.datesOfBirth,
        nationalities: type === 'VESSEL' && vesselFlag ? countries([...facts.nationalities, vesselFlag]) : facts.nationalities,
        documents: facts.documents,
        programs: splitPrograms(r[3]),
        ...(clean(r[11]) ? { remarks: clean(r[11]) } : {}),
      },
    });
  }
  if (alt) {
    for (const r of csvRows(alt)) {
      const target = entries.get(clean(r[0]) ?? '');
      if (!target) continue; // the alias file may be newer than the primary file
      const weak = /weak/i.test(r[4] ?? '');
      target.names.add(r[3], weak ? 'WEAK_ALIAS' : 'ALIAS', { splitAcronym: target.entry.entityType !== 'INDIVIDUAL' });
    }
  }
  if (add) {
    for (const r of csvRows(add)) {
      const target = entries.get(clean(r[0]) ?? '');
      if (!target) continue;
      const text = [r[2], r[3], r[4]].map(clean).filter(Boolean).join(', ');
      if (!text) continue;
      const country = countries([r[4]])[0];
      (target.entry.addresses ??= []).push({ text, ...(country ? { country } : {}) });
    }
  }
  return [...entries.values()].map(({ entry, names }) => finishEntry({ ...entry, names: names.list() }));
}

const ARRAYS = new Set([
  'sdnEntry',
  'program',
  'aka',
  'id',
  'dateOfBirthItem',
  'nationality',
  'citizenship',
  'address',
  'placeOfBirthItem',
]);

function asArray<T>(v: T | T[] | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function xmlName(last: unknown, first: unknown, individual: boolean): string | undefined {
  const l = clean(last);
  const f = clean(first);
  if (!l) return f;
  if (!f) return l;
  return individual ? `${l}, ${f}` : `${f} ${l}`;
}

export function parseOfacXml(source: string, xml: string): ListEntry[] {
  const parser = new XMLParser({
    ignoreAttributes: true,
    removeNSPrefix: true,
    parseTagValue: false,
    trimValues: true,
    isArray: (name) => ARRAYS.has(name),
  });
  const doc0 = parser.parse(xml) as { sdnList?: { sdnEntry?: any[] } };
  const list = doc0.sdnList;
  if (!list) throw new Error('not an OFAC sdnList document');
  return asArray(list.sdnEntry).map((e: any) => {
    const type = entityType(clean(e.sdnType));
    const individual = type === 'INDIVIDUAL';
    const names = new EntryNames();
    names.add(xmlName(e.lastName, e.firstName, individual), 'PRIMARY', { splitAcronym: !individual });
    for (const a of asArray<any>(e.akaList?.aka)) {
      names.add(xmlName(a.lastName, a.firstName, individual), /weak/i.test(clean(a.category) ?? '') ? 'WEAK_ALIAS' : 'ALIAS', {
        splitAcronym: !individual,
      });
    }
    const documents: Doc[] = [];
    const nat: (string | undefined)[] = [];
    for (const id of asArray<any>(e.idList?.id)) {
      const t = clean(id.idType) ?? '';
      if (/nationality of registration/i.test(t)) nat.push(clean(id.idCountry) ?? clean(id.idNumber));
      const d = doc(t, id.idNumber, id.idCountry);
      if (d) documents.push(d);
    }
    for (const n of asArray<any>(e.nationalityList?.nationality)) nat.push(clean(n.country));
    for (const c of asArray<any>(e.citizenshipList?.citizenship)) nat.push(clean(c.country));
    if (type === 'VESSEL') nat.push(clean(e.vesselInfo?.vesselFlag));
    const addresses = asArray<any>(e.addressList?.address)
      .map((a) => {
        const text = [a.address1, a.address2, a.address3, a.city, a.stateOrProvince, a.postalCode, a.country]
          .map(clean)
          .filter(Boolean)
          .join(', ');
        const country = countries([a.country])[0];
        return text ? { text, ...(country ? { country } : {}) } : null;
      })
      .filter((a): a is { text: string; country?: string } => a !== null);
    return finishEntry({
      source,
      kind: 'SANCTIONS',
      externalId: clean(e.uid) ?? '',
      entityType: type,
      names: names.list(),
      datesOfBirth: asArray<any>(e.dateOfBirthList?.dateOfBirthItem).flatMap((d) => parseDates(clean(d.dateOfBirth))),
      nationalities: countries(nat),
      documents,
      programs: asArray<any>(e.programList?.program)
        .map(clean)
        .filter((p): p is string => !!p),
      ...(clean(e.remarks) ? { remarks: clean(e.remarks) } : {}),
      ...(addresses.length ? { addresses } : {}),
    });
  });
}
