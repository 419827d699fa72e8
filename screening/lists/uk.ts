import { parse as parseCsv } from 'csv-parse/sync';
import type { EntityType, ListEntry, NameType } from '../types.js';
import { clean, countries, doc, EntryNames, finishEntry, parseDates, parseDay, type Doc } from './util.js';

/**
 * UK financial sanctions consolidated list, CSV (OFSI ConList.csv,
 * https://ofsistorage.blob.core.windows.net/publishlive/2022format/ConList.csv): a first line
 * "Last Updated,dd/mm/yyyy", then a header with Name 6 (family name / entity name), Name 1…5, Title,
 * Name Non-Latin Script, DOB (dd/mm/yyyy, 00 for unknown parts), Nationality, Passport Number,
 * National Identification Number, Group Type (Individual|Entity|Ship), Alias Type (Primary name |
 * AKA | Prime Alias…), Alias Quality, Regime, Listed On, Group ID. One row per name: rows of the
 * same Group ID form one entry.
 */

const TYPES: Record<string, EntityType> = { individual: 'INDIVIDUAL', entity: 'ENTITY', ship: 'VESSEL' };

export function looksLikeUkCsv(text: string): boolean {
  const head = text.slice(0, 2000).toLowerCase();
  return head.includes('name 6') && head.includes('group id');
}

export function parseUkCsv(text: string, source = 'UK_OFSI'): ListEntry[] {
  const lines = text.replace(/^\uFEFF/, '');
  // skip the "Last Updated" line: the header is the first line naming "Name 6"
  const headerAt = lines.toLowerCase().indexOf('name 6');
  const start = lines.lastIndexOf('\n', headerAt) + 1;
  const rows = parseCsv(lines.slice(start), {
    columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()),
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
  }) as Record<string, string>[];
  const groups = new Map<string, { rows: Record<string, string>[] }>();
  for (const r of rows) {
    const id = clean(r['group id']);
    if (!id) continue;
    const g = groups.get(id) ?? { rows: [] };
    g.rows.push(r);
    groups.set(id, g);
  }
  const out: ListEntry[] = [];
  for (const [id, g] of groups) {
    const type = TYPES[(clean(g.rows[0]['group type']) ?? '').toLowerCase()] ?? 'UNKNOWN';
    const names = new EntryNames();
    const individual = type === 'INDIVIDUAL';
    // the primary row first
    const ordered = [...g.rows].sort((a, b) => rank(a) - rank(b));
    ordered.forEach((r, i) => {
      const given = ['name 1', 'name 2', 'name 3', 'name 4', 'name 5']
        .map((k) => clean(r[k]))
        .filter(Boolean)
        .join(' ');
      const family = clean(r['name 6']);
      const full = individual && family && given ? `${family}, ${given}` : [given, family].filter(Boolean).join(' ');
      const aliasType = (clean(r['alias type']) ?? '').toLowerCase();
      const quality = (clean(r['alias quality']) ?? '').toLowerCase();
      const nameType: NameType =
        i === 0 && aliasType.startsWith('primary') ? 'PRIMARY' : i === 0 ? 'PRIMARY' : quality === 'low' ? 'WEAK_ALIAS' : 'ALIAS';
      names.add(full, nameType, { splitAcronym: !individual });
      names.add(r['name non-latin script'], 'ORIGINAL_SCRIPT');
    });
    const documents: Doc[] = [];
    const dobs: string[] = [];
    const nats: (string | undefined)[] = [];
    const programs: string[] = [];
    let listed: string | undefined;
    for (const r of g.rows) {
      for (const d of (clean(r['dob']) ?? '').split(/[;|]/)) dobs.push(...parseDates(d));
      for (const n of (clean(r['nationality']) ?? '').split(/[;,]|\(\d+\)/)) nats.push(clean(n.replace(/^\(?\d+\)\s*/, '')));
      const passport = doc('Passport', r['passport number'], clean(r['passport details'])?.match(/\(([^)]+)\)/)?.[1]);
      if (passport) documents.push(passport);
      const nid = doc('National Identification Number', r['national identification number']);
      if (nid) documents.push(nid);
      const regime = clean(r['regime']);
      if (regime) programs.push(regime);
      const on = parseDay(r['listed on']) ?? parseDay(r['uk sanctions list date designated']);
      if (on && (!listed || on < listed)) listed = on;
    }
    const remarks = clean(g.rows[0]['other information']);
    out.push(
      finishEntry({
        source,
        kind: 'SANCTIONS',
        externalId: id,
        entityType: type,
        names: names.list(),
        datesOfBirth: dobs,
        nationalities: countries(nats),
        documents,
        programs,
        ...(remarks ? { remarks } : {}),
        ...(listed ? { addedDate: listed } : {}),
      }),
    );
  }
  return out;
}

function rank(r: Record<string, string>): number {
  const t = (clean(r['alias type']) ?? '').toLowerCase();
  return t.startsWith('primary') ? 0 : t.startsWith('prime alias') ? 1 : 2;
}
