import { normalizeCountry } from '../countries.js';
import type { ListEntry, NameType } from '../types.js';

/** Shared helpers of the list parsers: decoding, nulls, dates, documents, names. */

export interface ListFile {
  name: string;
  content: string | Buffer;
}

/** UTF-8 (BOM stripped), falling back to Windows-1252/Latin-1 for files that are not valid UTF-8. */
export function decode(content: string | Buffer): string {
  let text: string;
  if (typeof content === 'string') text = content;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(content);
    } catch {
      text = new TextDecoder('windows-1252').decode(content);
    }
  }
  return text.replace(/^\uFEFF/, '');
}

/** OFAC's null marker `-0-` (often with a trailing space), empty strings → undefined. */
export function clean(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  const s = String(v).replace(/\s+/g, ' ').trim();
  if (!s || s === '-0-') return undefined;
  return s;
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Dates of birth as lists write them → YYYY-MM-DD / YYYY-MM / YYYY (several for ranges):
 * "10 Dec 1948", "Dec 1948", "1948", "circa 1958", "1960 to 1962", "1948-12-10", "10/12/1948",
 * "00/00/1948" (UK unknown parts), "1961-01-01".
 */
export function parseDates(raw: string | undefined): string[] {
  const s = clean(raw);
  if (!s) return [];
  const range = /(\d{4})\s*(?:to|-|–)\s*(\d{4})/i.exec(s);
  if (range && !/^\d{4}-\d{2}/.test(s)) {
    const from = +range[1];
    const to = +range[2];
    if (to >= from && to - from <= 15) return Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
  }
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (m) return [`${m[1]}-${m[2]}-${m[3]}`];
  m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(s);
  if (m) {
    const [d, mo, y] = [+m[1], +m[2], m[3]];
    if (!mo) return [y];
    if (!d) return [`${y}-${pad(mo)}`];
    return [`${y}-${pad(mo)}-${pad(d)}`];
  }
  m = /(?:^|\s)(\d{1,2})\s+([A-Za-z]{3,9})\.?\s+(\d{4})/.exec(s);
  if (m && MONTHS[m[2].slice(0, 3).toLowerCase()]) return [`${m[3]}-${pad(MONTHS[m[2].slice(0, 3).toLowerCase()])}-${pad(+m[1])}`];
  m = /(?:^|\s)([A-Za-z]{3,9})\.?\s+(\d{4})/.exec(s);
  if (m && MONTHS[m[1].slice(0, 3).toLowerCase()]) return [`${m[2]}-${pad(MONTHS[m[1].slice(0, 3).toLowerCase()])}`];
  m = /(\d{4})/.exec(s);
  return m ? [m[1]] : [];
}

/** dd/mm/yyyy, yyyy-mm-dd or "10 Dec 1948" → YYYY-MM-DD (undefined when not a full date). */
export function parseDay(raw: string | undefined): string | undefined {
  const d = parseDates(raw)[0];
  return d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? d : undefined;
}

/** Pulls a trailing "(ACRONYM)" off an entity name: "AFGHAN SUPPORT COMMITTEE (ASC)" → name + alias. */
export function splitParenthetical(name: string): { name: string; extra?: string } {
  const m = /^(.*\S)\s*\(([^()]{2,60})\)\s*$/.exec(name);
  if (!m || /a\.k\.a|f\.k\.a|formerly|see /i.test(m[2])) return { name };
  return { name: m[1], extra: m[2].trim() };
}

export class EntryNames {
  private readonly names: ListEntry['names'] = [];
  private readonly seen = new Set<string>();

  add(full: string | undefined, type: NameType, opts: { splitAcronym?: boolean } = {}): void {
    const n = clean(full);
    if (!n) return;
    if (opts.splitAcronym) {
      const { name, extra } = splitParenthetical(n);
      this.push(name, type);
      if (extra) this.push(extra, type === 'PRIMARY' ? 'ALIAS' : type);
      return;
    }
    this.push(n, type);
  }

  private push(full: string, type: NameType): void {
    const key = full.toLowerCase();
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.names.push({ full, type });
  }

  list(): ListEntry['names'] {
    // the primary name first
    return [...this.names].sort((a, b) => (a.type === 'PRIMARY' ? -1 : 0) - (b.type === 'PRIMARY' ? -1 : 0));
  }
}

export function uniq<T>(values: T[]): T[] {
  return [...new Set(values)];
}

export function countries(values: (string | undefined)[]): string[] {
  return uniq(
    values
      .map(clean)
      .filter((v): v is string => !!v && !/^(none identified|unknown|n\/a)$/i.test(v))
      .map(normalizeCountry),
  );
}

/** Document types that are identifiers of the person/company (not dates, websites, directives…). */
const NOT_DOCUMENTS =
  /date|executive order|secondary sanctions|gender|e-?mail|website|target type|organization type|established|issuer name|caatsa|directive|information|nationality of registration|additional sanctions|transactions prohibited|vessel (flag|type|year)|aircraft (model|manufacture|operator|construction|mode)|other vessel|digital currency|\bmicex\b|listing/i;

export function isDocumentType(type: string): boolean {
  return !NOT_DOCUMENTS.test(type);
}

export type Doc = ListEntry['documents'][number];

export function doc(type: string | undefined, number: string | undefined, country?: string): Doc | null {
  const t = clean(type);
  const n = clean(number);
  if (!t || !n || !isDocumentType(t)) return null;
  const c = clean(country);
  return { type: t, number: n, ...(c ? { country: normalizeCountry(c) } : {}) };
}

/** Stable order and no duplicates, so that the snapshot diff sees only real changes. */
export function finishEntry(e: ListEntry): ListEntry {
  const docs = new Map<string, Doc>();
  for (const d of e.documents) docs.set(`${d.type}|${d.number}|${d.country ?? ''}`, d);
  return {
    ...e,
    datesOfBirth: uniq(e.datesOfBirth),
    nationalities: uniq(e.nationalities),
    documents: [...docs.values()],
    programs: uniq(e.programs),
    ...(e.remarks ? { remarks: e.remarks } : {}),
  };
}
