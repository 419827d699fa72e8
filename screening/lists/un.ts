import { XMLParser } from 'fast-xml-parser';
import type { ListEntry } from '../types.js';
import { clean, countries, doc, EntryNames, finishEntry, parseDates, type Doc } from './util.js';

/**
 * UN Security Council consolidated list XML
 * (https://scsanctions.un.org/resources/xml/en/consolidated.xml): CONSOLIDATED_LIST with
 * INDIVIDUALS/INDIVIDUAL and ENTITIES/ENTITY. Names: FIRST_NAME…FOURTH_NAME (entities: FIRST_NAME),
 * NAME_ORIGINAL_SCRIPT, *_ALIAS {QUALITY Good|Low|a.k.a.|f.k.a., ALIAS_NAME}; DOB
 * {TYPE_OF_DATE EXACT|APPROXIMATELY|BETWEEN, DATE|YEAR|FROM_YEAR/TO_YEAR}; NATIONALITY/VALUE;
 * INDIVIDUAL_DOCUMENT {TYPE_OF_DOCUMENT, NUMBER, ISSUING_COUNTRY|COUNTRY_OF_ISSUE}. The external id
 * is the REFERENCE_NUMBER (QDi.001…), else DATAID.
 */

const ARRAYS = new Set([
  'INDIVIDUAL',
  'ENTITY',
  'VALUE',
  'INDIVIDUAL_ALIAS',
  'ENTITY_ALIAS',
  'INDIVIDUAL_DATE_OF_BIRTH',
  'INDIVIDUAL_DOCUMENT',
  'INDIVIDUAL_ADDRESS',
  'ENTITY_ADDRESS',
]);

function asArray<T>(v: T | T[] | undefined): T[] {
  return v === undefined || v === '' ? [] : Array.isArray(v) ? v : [v];
}

function values(node: any): string[] {
  return asArray<any>(node?.VALUE)
    .map(clean)
    .filter((v): v is string => !!v);
}

function dob(d: any): string[] {
  const type = clean(d.TYPE_OF_DATE)?.toUpperCase();
  if (type === 'BETWEEN' && clean(d.FROM_YEAR) && clean(d.TO_YEAR)) return parseDates(`${clean(d.FROM_YEAR)} to ${clean(d.TO_YEAR)}`);
  if (clean(d.DATE)) return parseDates(clean(d.DATE));
  if (clean(d.YEAR)) return parseDates(clean(d.YEAR));
  return [];
}

function address(a: any): { text: string; country?: string } | null {
  const text = [a.STREET, a.CITY, a.STATE_PROVINCE, a.ZIP_CODE, a.COUNTRY].map(clean).filter(Boolean).join(', ');
  if (!text) return null;
  const country = countries([a.COUNTRY])[0];
  return { text, ...(country ? { country } : {}) };
}

export function parseUnXml(xml: string, source = 'UN_SC'): ListEntry[] {
  const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, isArray: (name) => ARRAYS.has(name) });
  const root = (parser.parse(xml) as any).CONSOLIDATED_LIST;
  if (!root) throw new Error('not a UN CONSOLIDATED_LIST document');
  const out: ListEntry[] = [];
  const seen = new Set<string>();
  const idOf = (x: any) => {
    const ref = clean(x.REFERENCE_NUMBER);
    const id = ref && !seen.has(ref) ? ref : (clean(x.DATAID) ?? ref ?? '');
    seen.add(id);
    return id;
  };
  for (const p of asArray<any>(root.INDIVIDUALS?.INDIVIDUAL)) {
    const names = new EntryNames();
    names.add([p.FIRST_NAME, p.SECOND_NAME, p.THIRD_NAME, p.FOURTH_NAME].map(clean).filter(Boolean).join(' '), 'PRIMARY');
    names.add(p.NAME_ORIGINAL_SCRIPT, 'ORIGINAL_SCRIPT');
    for (const a of asArray<any>(p.INDIVIDUAL_ALIAS)) names.add(a.ALIAS_NAME, /low/i.test(clean(a.QUALITY) ?? '') ? 'WEAK_ALIAS' : 'ALIAS');
    const documents = asArray<any>(p.INDIVIDUAL_DOCUMENT)
      .map((d) => doc(d.TYPE_OF_DOCUMENT ?? d.TYPE_OF_DOCUMENT2, d.NUMBER, d.ISSUING_COUNTRY ?? d.COUNTRY_OF_ISSUE))
      .filter((d): d is Doc => d !== null);
    const addresses = asArray<any>(p.INDIVIDUAL_ADDRESS)
      .map(address)
      .filter((a): a is NonNullable<ReturnType<typeof address>> => a !== null);
    out.push(
      finishEntry({
        source,
        kind: 'SANCTIONS',
        externalId: idOf(p),
        entityType: 'INDIVIDUAL',
        names: names.list(),
        datesOfBirth: asArray<any>(p.INDIVIDUAL_DATE_OF_BIRTH).flatMap(dob),
        nationalities: countries(values(p.NATIONALITY)),
        documents,
        programs: [clean(p.UN_LIST_TYPE)].filter((v): v is string => !!v),
        ...(clean(p.COMMENTS1) ? { remarks: clean(p.COMMENTS1) } : {}),
        ...(clean(p.LISTED_ON) ? { addedDate: clean(p.LISTED_ON)!.slice(0, 10) } : {}),
        ...(addresses.length ? { addresses } : {}),
      }),
    );
  }
  for (const e of asArray<any>(root.ENTITIES?.ENTITY)) {
    const names = new EntryNames();
    names.add(e.FIRST_NAME, 'PRIMARY', { splitAcronym: true });
    names.add(e.NAME_ORIGINAL_SCRIPT, 'ORIGINAL_SCRIPT');
    for (const a of asArray<any>(e.ENTITY_ALIAS))
      names.add(a.ALIAS_NAME, /low/i.test(clean(a.QUALITY) ?? '') ? 'WEAK_ALIAS' : 'ALIAS', { splitAcronym: true });
    const addresses = asArray<any>(e.ENTITY_ADDRESS)
      .map(address)
      .filter((a): a is NonNullable<ReturnType<typeof address>> => a !== null);
    out.push(
      finishEntry({
        source,
        kind: 'SANCTIONS',
        externalId: idOf(e),
        entityType: 'ENTITY',
        names: names.list(),
        datesOfBirth: [],
        nationalities: [],
        documents: [],
        programs: [clean(e.UN_LIST_TYPE)].filter((v): v is string => !!v),
        ...(clean(e.COMMENTS1) ? { remarks: clean(e.COMMENTS1) } : {}),
        ...(clean(e.LISTED_ON) ? { addedDate: clean(e.LISTED_ON)!.slice(0, 10) } : {}),
        ...(addresses.length ? { addresses } : {}),
      }),
    );
  }
  return out;
}
