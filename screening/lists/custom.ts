import { parse as parseCsv } from 'csv-parse/sync';
import { z } from 'zod';
import { badInput, invalid } from '../../platform/errors.js';
import { ENTITY_TYPES, LIST_KINDS, type EntityType, type ListEntry, type ListKind } from '../types.js';
import { clean, countries, EntryNames, finishEntry, parseDates, type Doc } from './util.js';

/**
 * Customer lists (PEP, adverse media, law enforcement, own sanctions lists) in a documented CSV or
 * JSON format (screening/README.md "Custom lists"). Source = CUSTOM_<LIST NAME>.
 *
 * CSV: a header row; columns (case-insensitive, any order): id*, name*, aliases, type, kind,
 * list, dateOfBirth, nationality, documents, programs, remarks, addedDate. Multi-valued cells are
 * separated by ";". documents: "TYPE:NUMBER[:COUNTRY]". type: INDIVIDUAL (default) | ENTITY |
 * VESSEL | AIRCRAFT. kind: PEP | ADVERSE_MEDIA | LAW_ENFORCEMENT | SANCTIONS.
 *
 * JSON: {"list": "NG_PEP", "kind": "PEP", "entries": [{"id", "name", "aliases": [], "type",
 * "datesOfBirth": [], "nationalities": [], "documents": [{"type", "number", "country"}],
 * "programs": [], "remarks", "addedDate"}]}
 */

export function customSource(list: string): string {
  const base = list
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/\.(CSV|JSON)$/, '')
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^CUSTOM_/, '')
    .slice(0, 48);
  if (!base) throw badInput('A custom list needs a name (the "list" field, the source, or the file name)');
  return `CUSTOM_${base}`;
}

const kindSchema = z.enum(LIST_KINDS as [ListKind, ...ListKind[]]);
const typeSchema = z.enum(ENTITY_TYPES as [EntityType, ...EntityType[]]);

const jsonEntry = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  name: z.string().min(1),
  aliases: z.array(z.string()).optional(),
  type: typeSchema.optional(),
  kind: kindSchema.optional(),
  datesOfBirth: z.array(z.string()).optional(),
  nationalities: z.array(z.string()).optional(),
  documents: z.array(z.object({ type: z.string().min(1), number: z.string().min(1), country: z.string().optional() })).optional(),
  programs: z.array(z.string()).optional(),
  remarks: z.string().optional(),
  addedDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'addedDate must be YYYY-MM-DD')
    .optional(),
});

const jsonDoc = z.object({
  list: z.string().min(1).optional(),
  kind: kindSchema.optional(),
  entries: z.array(jsonEntry).min(1),
});

export type CustomRecord = z.infer<typeof jsonEntry>;

function toEntry(source: string, kind: ListKind, r: CustomRecord): ListEntry {
  const names = new EntryNames();
  const entityType = r.type ?? 'INDIVIDUAL';
  names.add(r.name, 'PRIMARY', { splitAcronym: entityType !== 'INDIVIDUAL' });
  for (const a of r.aliases ?? []) names.add(a, 'ALIAS', { splitAcronym: entityType !== 'INDIVIDUAL' });
  return finishEntry({
    source,
    kind: r.kind ?? kind,
    externalId: r.id,
    entityType,
    names: names.list(),
    datesOfBirth: (r.datesOfBirth ?? []).flatMap((d) => parseDates(d)),
    nationalities: countries(r.nationalities ?? []),
    documents: (r.documents ?? []).map((d) => ({
      type: d.type,
      number: d.number,
      ...(d.country ? { country: countries([d.country])[0] } : {}),
    })),
    programs: r.programs ?? [],
    ...(r.remarks ? { remarks: r.remarks } : {}),
    ...(r.addedDate ? { addedDate: r.addedDate } : {}),
  });
}

function issues(err: z.ZodError): string[] {
  return err.issues.map((i) => `${i.path.join('.') || 'list'}: ${i.message}`);
}

export function parseCustomJson(
  text: string,
  hint: { source?: string; kind?: ListKind; fileName?: string },
): { source: string; entries: ListEntry[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw badInput('The custom list is not valid JSON');
  }
  const parsed = jsonDoc.safeParse(Array.isArray(raw) ? { entries: raw } : raw);
  if (!parsed.success) throw invalid(issues(parsed.error));
  const source = customSource(parsed.data.list ?? hint.source ?? hint.fileName ?? '');
  const kind = parsed.data.kind ?? hint.kind;
  if (!kind && parsed.data.entries.some((e) => !e.kind))
    throw invalid('kind is required (PEP, ADVERSE_MEDIA, LAW_ENFORCEMENT or SANCTIONS): give it for the list or for each entry');
  return { source, entries: parsed.data.entries.map((e) => toEntry(source, kind ?? 'SANCTIONS', e)) };
}

const split = (v: string | undefined) =>
  (clean(v) ?? '')
    .split(/\s*;\s*/)
    .map((x) => x.trim())
    .filter(Boolean);

export function looksLikeCustomCsv(text: string): boolean {
  const header =
    text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/, 1)[0]
      ?.toLowerCase() ?? '';
  const cols = header.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
  return cols.includes('id') && cols.includes('name');
}

export function parseCustomCsv(
  text: string,
  hint: { source?: string; kind?: ListKind; fileName?: string },
): { source: string; entries: ListEntry[] } {
  let rows: Record<string, string>[];
  try {
    rows = parseCsv(text.replace(/^\uFEFF/, ''), {
      columns: (h: string[]) =>
        h.map((c) =>
          c
            .trim()
            .toLowerCase()
            .replace(/[\s_-]+/g, ''),
        ),
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
    }) as Record<string, string>[];
  } catch (err) {
    throw badInput(`The custom list is not valid CSV: ${(err as Error).message}`);
  }
  const list = rows.find((r) => clean(r.list))?.list;
  const records: unknown[] = rows.map((r) => ({
    id: clean(r.id),
    name: clean(r.name),
    aliases: split(r.aliases),
    type: clean(r.type)?.toUpperCase(),
    kind: clean(r.kind)?.toUpperCase(),
    datesOfBirth: split(r.dateofbirth ?? r.datesofbirth ?? r.dob),
    nationalities: split(r.nationality ?? r.nationalities),
    documents: split(r.documents).map((d): Partial<Doc> => {
      const [type, number, country] = d.split(':').map((x) => x.trim());
      return { type, number, ...(country ? { country } : {}) };
    }),
    programs: split(r.programs),
    remarks: clean(r.remarks),
    addedDate: clean(r.addeddate),
  }));
  const parsed = z.array(jsonEntry).min(1).safeParse(records);
  if (!parsed.success) throw invalid(issues(parsed.error).map((m) => m.replace(/^(\d+)\./, (_, i) => `row ${Number(i) + 2}: `)));
  const source = customSource(list ?? hint.source ?? hint.fileName ?? '');
  if (!hint.kind && parsed.data.some((e) => !e.kind))
    throw invalid('kind is required (PEP, ADVERSE_MEDIA, LAW_ENFORCEMENT or SANCTIONS): a "kind" column or the import\'s kind');
  return { source, entries: parsed.data.map((e) => toEntry(source, hint.kind ?? 'SANCTIONS', e)) };
}
