import { badInput } from '../../platform/errors.js';
import type { ListEntry, ListKind } from '../types.js';
import { parseCustomCsv, parseCustomJson, looksLikeCustomCsv } from './custom.js';
import { parseEuXml } from './eu.js';
import { looksLikeOfacAdd, looksLikeOfacAlt, looksLikeOfacPrimary, parseOfacCsv, parseOfacXml } from './ofac.js';
import { looksLikeUkCsv, parseUkCsv } from './uk.js';
import { parseUnXml } from './un.js';
import { decode, type ListFile } from './util.js';

export type { ListFile };

export type ListFormat = 'OFAC_CSV' | 'OFAC_XML' | 'UN_XML' | 'EU_XML' | 'UK_CSV' | 'CUSTOM_CSV' | 'CUSTOM_JSON';
export const LIST_FORMATS: readonly ListFormat[] = ['OFAC_CSV', 'OFAC_XML', 'UN_XML', 'EU_XML', 'UK_CSV', 'CUSTOM_CSV', 'CUSTOM_JSON'];

export interface ParsedList {
  source: string;
  entries: ListEntry[];
  format: ListFormat;
  files: string[];
}

type Detected = 'OFAC_PRIMARY' | 'OFAC_ALT' | 'OFAC_ADD' | 'OFAC_XML' | 'UN_XML' | 'EU_XML' | 'UK_CSV' | 'CUSTOM_CSV' | 'CUSTOM_JSON';

/** Detects a list file's format from its content (the file name only breaks OFAC SDN/consolidated ties). */
export function detectFormat(text: string): Detected | null {
  const head = text
    .slice(0, 4000)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (head.startsWith('<')) {
    if (/<(\w+:)?sdnList[\s>]/.test(head)) return 'OFAC_XML';
    if (/<CONSOLIDATED_LIST[\s>]/.test(head)) return 'UN_XML';
    if (/<(\w+:)?export[\s>]/.test(head) && /sanctionEntity/.test(text.slice(0, 20000))) return 'EU_XML';
    return null;
  }
  if (head.startsWith('{') || head.startsWith('[')) return 'CUSTOM_JSON';
  if (looksLikeUkCsv(head)) return 'UK_CSV';
  if (looksLikeOfacPrimary(head)) return 'OFAC_PRIMARY';
  if (looksLikeOfacAlt(head)) return 'OFAC_ALT';
  if (looksLikeOfacAdd(head)) return 'OFAC_ADD';
  if (looksLikeCustomCsv(head)) return 'CUSTOM_CSV';
  return null;
}

/** Programs only the consolidated (non-SDN) list carries. */
const NON_SDN_PROGRAM = /^(NS-|CMIC|UKRAINE-EO13662|561-RELATED|FSE-|CAPTA|SSI|MBS)/i;

function ofacSource(fileName: string, entries: ListEntry[], hint?: string): 'OFAC_SDN' | 'OFAC_CONSOLIDATED' {
  if (hint === 'OFAC_SDN' || hint === 'OFAC_CONSOLIDATED') return hint;
  if (/cons|non[-_ ]?sdn/i.test(fileName)) return 'OFAC_CONSOLIDATED';
  if (/sdn/i.test(fileName)) return 'OFAC_SDN';
  const nonSdn = entries.filter((e) => e.programs.length > 0 && e.programs.every((p) => NON_SDN_PROGRAM.test(p))).length;
  return entries.length > 0 && nonSdn / entries.length > 0.9 ? 'OFAC_CONSOLIDATED' : 'OFAC_SDN';
}

const prefixOf = (name: string) => (/cons/i.test(name) ? 'cons' : 'sdn');

/**
 * Parses list files, detecting each format from its content. OFAC CSV sets (sdn.csv + alt.csv +
 * add.csv, or cons_prim/cons_alt/cons_add) given together become one list. `hint.source` forces the
 * source (OFAC SDN vs consolidated, or the custom list name); `hint.kind` is the kind of a custom
 * list whose rows do not say it.
 */
export function parseList(files: ListFile[], hint: { source?: string; kind?: ListKind } = {}): ParsedList[] {
  const out: ParsedList[] = [];
  const primaries: { name: string; text: string }[] = [];
  const alts: { name: string; text: string }[] = [];
  const adds: { name: string; text: string }[] = [];
  for (const f of files) {
    const text = decode(f.content);
    const format = detectFormat(text);
    switch (format) {
      case 'OFAC_PRIMARY':
        primaries.push({ name: f.name, text });
        break;
      case 'OFAC_ALT':
        alts.push({ name: f.name, text });
        break;
      case 'OFAC_ADD':
        adds.push({ name: f.name, text });
        break;
      case 'OFAC_XML': {
        const entries = parseOfacXml('OFAC_SDN', text);
        const source = ofacSource(f.name, entries, hint.source);
        out.push({ source, entries: entries.map((e) => ({ ...e, source })), format: 'OFAC_XML', files: [f.name] });
        break;
      }
      case 'UN_XML':
        out.push({ source: 'UN_SC', entries: parseUnXml(text), format: 'UN_XML', files: [f.name] });
        break;
      case 'EU_XML':
        out.push({ source: 'EU_FSF', entries: parseEuXml(text), format: 'EU_XML', files: [f.name] });
        break;
      case 'UK_CSV':
        out.push({ source: 'UK_OFSI', entries: parseUkCsv(text), format: 'UK_CSV', files: [f.name] });
        break;
      case 'CUSTOM_CSV': {
        const r = parseCustomCsv(text, { ...hint, fileName: f.name });
        out.push({ ...r, format: 'CUSTOM_CSV', files: [f.name] });
        break;
      }
      case 'CUSTOM_JSON': {
        const r = parseCustomJson(text, { ...hint, fileName: f.name });
        out.push({ ...r, format: 'CUSTOM_JSON', files: [f.name] });
        break;
      }
      default:
        throw badInput(
          `${f.name}: unrecognised list format (expected OFAC CSV/XML, UN XML, EU XML, UK CSV, or the custom CSV/JSON format)`,
        );
    }
  }
  if ((alts.length || adds.length) && !primaries.length) {
    throw badInput(
      `${[...alts, ...adds].map((f) => f.name).join(', ')}: OFAC alias/address files need their primary file (sdn.csv or cons_prim.csv) in the same import`,
    );
  }
  for (const p of primaries) {
    // pair alias/address files with their primary (sdn_* with sdn, cons_* with cons) when several
    const pick = (list: { name: string; text: string }[]) =>
      primaries.length === 1 ? list : list.filter((x) => prefixOf(x.name) === prefixOf(p.name));
    const myAlts = pick(alts);
    const myAdds = pick(adds);
    const provisional = parseOfacCsv('OFAC_SDN', p.text);
    const source = ofacSource(p.name, provisional, hint.source);
    const entries = parseOfacCsv(
      source,
      p.text,
      myAlts.map((a) => a.text).join('\n') || undefined,
      myAdds.map((a) => a.text).join('\n') || undefined,
    );
    out.push({ source, entries, format: 'OFAC_CSV', files: [p.name, ...myAlts.map((a) => a.name), ...myAdds.map((a) => a.name)] });
  }
  return out;
}
