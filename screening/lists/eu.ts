import { XMLParser } from 'fast-xml-parser';
import type { EntityType, ListEntry } from '../types.js';
import { clean, countries, doc, EntryNames, finishEntry, parseDates, uniq, type Doc } from './util.js';

/**
 * EU consolidated financial sanctions list (FSF), XML export
 * (https://webgate.ec.europa.eu/fsd/fsf — "Consolidated list of persons, groups and entities subject
 * to EU financial sanctions", XML 1.1): export/sanctionEntity {logicalId, euReferenceNumber,
 * designationDate} with regulation{programme, publicationDate}, subjectType{code person|enterprise},
 * nameAlias{wholeName, firstName, middleName, lastName, strong}, birthdate{birthdate, year},
 * citizenship{countryIso2Code}, identification{number, identificationTypeCode, countryIso2Code}, all
 * as attributes. External id: logicalId.
 */

const ARRAYS = new Set(['sanctionEntity', 'nameAlias', 'birthdate', 'citizenship', 'identification', 'regulation', 'address']);

function asArray<T>(v: T | T[] | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

const SUBJECT: Record<string, EntityType> = { person: 'INDIVIDUAL', enterprise: 'ENTITY', vessel: 'VESSEL', aircraft: 'AIRCRAFT' };

export function parseEuXml(xml: string, source = 'EU_FSF'): ListEntry[] {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    isArray: (name) => ARRAYS.has(name),
  });
  const root = (parser.parse(xml) as any).export;
  if (!root) throw new Error('not an EU FSF export document');
  return asArray<any>(root.sanctionEntity).map((s) => {
    const type = SUBJECT[(clean(s.subjectType?.code) ?? '').toLowerCase()] ?? 'UNKNOWN';
    const names = new EntryNames();
    const aliases = asArray<any>(s.nameAlias);
    aliases.forEach((a, i) => {
      const whole = clean(a.wholeName) ?? [a.firstName, a.middleName, a.lastName].map(clean).filter(Boolean).join(' ');
      const weak = clean(a.strong) === 'false';
      names.add(whole, i === 0 ? 'PRIMARY' : weak ? 'WEAK_ALIAS' : 'ALIAS', { splitAcronym: type !== 'INDIVIDUAL' });
    });
    const documents = asArray<any>(s.identification)
      .map((d) =>
        doc(
          clean(d.identificationTypeDescription) ?? clean(d.identificationTypeCode),
          clean(d.number) ?? clean(d.latinNumber),
          clean(d.countryIso2Code),
        ),
      )
      .filter((d): d is Doc => d !== null);
    const regulations = asArray<any>(s.regulation);
    const designated =
      clean(s.designationDate) ??
      regulations
        .map((r) => clean(r.publicationDate))
        .filter(Boolean)
        .sort()[0];
    return finishEntry({
      source,
      kind: 'SANCTIONS',
      externalId: clean(s.logicalId) ?? clean(s.euReferenceNumber) ?? '',
      entityType: type,
      names: names.list(),
      datesOfBirth: asArray<any>(s.birthdate).flatMap((b) => parseDates(clean(b.birthdate) ?? clean(b.year))),
      nationalities: countries(asArray<any>(s.citizenship).map((c) => clean(c.countryIso2Code) ?? clean(c.countryDescription))),
      documents,
      programs: uniq(regulations.map((r) => clean(r.programme)).filter((p): p is string => !!p)),
      ...(clean(s.remark) ? { remarks: clean(s.remark) } : {}),
      ...(designated ? { addedDate: designated.slice(0, 10) } : {}),
    });
  });
}
