import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

/**
 * Rebuilds two of the word lists of data/ from their published sources (see screening/README.md,
 * "Tables and their sources"):
 *
 *   node dist/screening/matching/data/make-tables.js <ELF code list CSV> <nicknames names.csv>
 *
 * - legal-forms-elf.json: the GLEIF ISO 20275 Entity Legal Forms code list (active rows): per legal
 *   form, its local and transliterated names and abbreviations. Single-word names that are ordinary
 *   nouns of organisations rather than legal forms (Foundation, Fund, Trust, Region…) are left out:
 *   they are part of what a name says.
 * - nicknames.json: the nickname and diminutive list of carltonnorthern/nicknames (pairs "name has
 *   nickname"), grouped by name.
 */

/** Institution nouns the ELF list uses as form names, kept in names (they distinguish entities). */
const GENERIC = new Set(
  `association associations asociacion asociación associazione associação asociacijos business fund funds fond fonds fondo fondy fonlar
  fondlar fundo sklad foundation foundations fondation fondazione fundacion fundación fundação fundacija fundacja stiftung stichting
  stiftelse nadace nadácia säätiö sihtasutus vakif yayasan zaklada fondatsia фондация фонды trust fiducie fideicomiso region région
  kraj obec kommun kunta municipal municipio métropole département estado ministére samkommun kuntayhtymä önkormányzat lokalsamfund
  railroad series congregación congrégation comunidad condominio condominiums sindicato ente firma partnership partnerships
  syndicates einzelfirma eenmanszaak business ejido dödsbo konkursbo kuolinpesä paliskunta renbeteslag ústav ustanova uczelnia
  udruga dernek birlik spolek verein vereniging forening ametiühing erakond loomeliit bendrijos šeimynos zrzeszenie kauppakamari
  medlemsbank sparbank sparebank sparkasse andelsbank sporiteľna säästöpankki osuuspankki mutua mutuelle sonota その他 kuninokikan`
    .split(/\s+/)
    .filter(Boolean),
);

type Row = Record<string, string>;

function legalForms(csvText: string): string[][] {
  const rows = parse(csvText, { columns: true, bom: true, skip_empty_lines: true }) as Row[];
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const r of rows) {
    if (r['ELF Status ACTV/INAC'] !== 'ACTV') continue;
    const names = [r['Entity Legal Form name Local name'], r['Entity Legal Form name Transliterated name (per ISO 01-140-10)']];
    const abbreviations = [r['Abbreviations Local language'], r['Abbreviations transliterated']].flatMap((a) => a.split(/;/));
    const variants = [...new Set([...names, ...abbreviations].map((v) => v.trim()).filter(Boolean))].filter(
      (v) => !GENERIC.has(v.toLowerCase()),
    );
    if (!variants.length) continue;
    const key = [...variants].sort().join('|');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(variants);
  }
  return out;
}

function nicknames(csvText: string): Record<string, string[]> {
  const rows = parse(csvText, { columns: true, skip_empty_lines: true }) as Row[];
  const out: Record<string, string[]> = {};
  for (const r of rows) {
    if (r.relationship !== 'has_nickname') continue;
    (out[r.name1] ??= []).push(r.name2);
  }
  return out;
}

if (process.argv[1]?.endsWith(`${path.sep}make-tables.js`)) {
  const [elfCsv, nicknamesCsv] = process.argv.slice(2);
  if (!elfCsv || !nicknamesCsv) {
    console.error('usage: node dist/screening/matching/data/make-tables.js <ELF code list CSV> <names.csv>');
    process.exit(1);
  }
  const dir = path.resolve('screening', 'matching', 'data');
  const forms = legalForms(readFileSync(elfCsv, 'utf8'));
  writeFileSync(
    path.join(dir, 'legal-forms-elf.json'),
    `{"source": "GLEIF ISO 20275 Entity Legal Forms code list, ${path.basename(elfCsv)}", "licence": "CC0 1.0", "forms": [\n${forms.map((f) => JSON.stringify(f)).join(',\n')}\n]}\n`,
  );
  const nicks = nicknames(readFileSync(nicknamesCsv, 'utf8'));
  writeFileSync(
    path.join(dir, 'nicknames.json'),
    `{"source": "carltonnorthern/nicknames names.csv", "licence": "Apache-2.0", "nicknames": {\n${Object.entries(nicks)
      .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
      .join(',\n')}\n}}\n`,
  );
  console.log(`legal-forms-elf.json: ${forms.length} forms; nicknames.json: ${Object.keys(nicks).length} names`);
}
