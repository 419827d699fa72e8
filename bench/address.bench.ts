import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decideAddress, type AddressOutcome } from '../subgraphs/verification/src/address/address-decision.js';
import { addressTokens, tokenSimilarity } from '../subgraphs/verification/src/address/address-match.js';
import { readAddressDocument, type AddressReading } from '../subgraphs/verification/src/address/address-reader.js';
import type { TextReader } from '../subgraphs/verification/src/vision/text-reader.js';
import { LANGS, LAYOUTS, planBills, TODAY, type PlannedBill } from './support/bill-corpus.js';
import { renderBill } from './support/bill-render.js';
import { CONDITIONS, type Condition } from './support/conditions.js';
import { corpusSettings, percent, printTable, quantile, whole, withReaders, type CorpusSettings } from './support/corpus-run.js';
import { verdict } from './support/targets.js';

/**
 * Proof-of-address reading on bills it was never tuned on: a generated corpus (seeded, made at run
 * time, `support/bill-corpus.ts`) of electricity, water, telephone and bank bills of issuers of
 * Nigeria, Kenya, Ghana, South Africa (English), Senegal, Côte d'Ivoire, Cameroon and Morocco
 * (French), in three layouts and four fonts, dated in the forms bills print (12/03/2026,
 * 2026-03-12, 12 March 2026, 12 mars 2026, …) under the labels they use, recent, too old or dated
 * ahead; each rendered under one condition of the documents bench (`support/conditions.ts`).
 * Each bill is read as the address worker reads it (`readAddressDocument`: Tesseract with the
 * English and French models, then the fields) and judged by `decideAddress` against the address
 * it prints. Per language × condition, per condition, per layout: issue date exact, date read,
 * documentAge right (of the bills whose date was read), issuer right, address right, verdict as
 * expected, unreadable bills. Targets of issue 29.5, measured on the report corpus only.
 *
 * "Right" for the issuer and the address: the words read, normalised as the address comparison
 * normalises them (case, accents, punctuation, abbreviations), against the words printed, with
 * a word misread by at most one letter in five counted as found and numbers only when equal:
 * token F1 ≥ 0.9. The verdict expected: VERIFIED for a recent bill (its own address declared),
 * REJECTED with DOCUMENT_TOO_OLD for an old one, MANUAL_REVIEW with ISSUE_DATE_IN_FUTURE ahead.
 *
 * Settings: ADDRESS_BENCH_CORPUS (`report`, the default, whose figures are published; `tune`,
 * another seed, for tuning the reader: never tune on the report corpus), ADDRESS_BENCH_BILLS
 * (140, about 5 minutes on 2 busy cores: each language × condition 10 times, layouts in turn;
 * a corpus's first bills are the same whatever its size), ADDRESS_BENCH_CONDITIONS
 * (comma-separated: only those), ADDRESS_BENCH_READERS (OCR workers at once: 2, or 1 on one core),
 * ADDRESS_BENCH_SAVE (a folder: every JPEG, and truth.json with each bill and its reading),
 * ADDRESS_BENCH_ERRORS (print that many wrong readings, bill against reading).
 */

const SEEDS = { report: 'bill-corpus/report/1', tune: 'bill-corpus/tune/1' } as const;
const DEFAULT_BILLS = 140;

type Corpus = keyof typeof SEEDS;
type Planned = PlannedBill<Condition>;

interface Scored {
  doc: Planned;
  reading: AddressReading | null;
  outcome: AddressOutcome | null;
  dateExact: boolean;
  dateRead: boolean;
  /** documentAgeDays equal to the bill's age (only counted when a date was read). */
  ageRight: boolean;
  issuerRight: boolean;
  addressRight: boolean;
  verdictRight: boolean;
  unreadable: boolean;
  renderMs: number;
  readMs: number;
  threw?: string;
}

interface Settings extends CorpusSettings<Corpus> {
  bills: number;
}

function settings(): Settings {
  return { ...corpusSettings('ADDRESS_BENCH', Object.keys(SEEDS) as Corpus[]), bills: whole('ADDRESS_BENCH_BILLS', DEFAULT_BILLS, 1) };
}

/**
 * Token F1 of `read` against `truth` (words as the address comparison normalises them; a word
 * counts as found when `tokenSimilarity` is above 0: equal numbers, words within one letter in five).
 */
export function tokenF1(truth: string, read: string | null): number {
  const a = addressTokens(truth);
  const b = addressTokens(read ?? '');
  if (!a.length || !b.length) return 0;
  const recall = a.filter((word) => b.some((other) => tokenSimilarity(word, other) > 0)).length / a.length;
  const precision = b.filter((word) => a.some((other) => tokenSimilarity(word, other) > 0)).length / b.length;
  return recall + precision ? (2 * recall * precision) / (recall + precision) : 0;
}

const RIGHT_F1 = 0.9;

function expectedVerdict(doc: Planned, outcome: AddressOutcome): boolean {
  const { age } = doc.bill;
  if (age === 'recent') return outcome.decision === 'VERIFIED';
  if (age === 'old') return outcome.decision === 'REJECTED' && outcome.reasons.includes('DOCUMENT_TOO_OLD');
  return outcome.decision === 'MANUAL_REVIEW' && outcome.reasons.includes('ISSUE_DATE_IN_FUTURE');
}

function score(doc: Planned, reading: AddressReading | null, times: Pick<Scored, 'renderMs' | 'readMs' | 'threw'>): Scored {
  const { bill } = doc;
  const outcome = reading
    ? decideAddress({
        fields: reading.fields,
        textConfidence: reading.textConfidence,
        expectedAddress: bill.address.join(', '),
        today: TODAY,
      })
    : null;
  const fields = reading?.fields;
  return {
    doc,
    reading,
    outcome,
    dateExact: fields?.issueDate === bill.issueDate,
    dateRead: !!fields?.issueDate,
    ageRight: outcome?.documentAgeDays === bill.ageDays,
    issuerRight: tokenF1(bill.issuer, fields?.issuer ?? null) >= RIGHT_F1,
    addressRight: tokenF1(bill.address.join(', '), fields?.address ?? null) >= RIGHT_F1,
    verdictRight: !!outcome && expectedVerdict(doc, outcome),
    unreadable: !outcome || outcome.reasons.includes('UNREADABLE_DOCUMENT'),
    ...times,
  };
}

const fileName = (doc: Planned) => `${String(doc.index).padStart(4, '0')}-${doc.bill.lang}-${doc.condition}-${doc.bill.layout}.jpg`;

async function readOne(doc: Planned, text: TextReader, s: Settings): Promise<Scored> {
  const started = performance.now();
  const jpeg = await renderBill(doc.bill, doc.condition, doc.seed);
  if (s.save) writeFileSync(path.join(s.save, fileName(doc)), jpeg);
  const rendered = performance.now();
  let reading: AddressReading | null = null;
  let threw: string | undefined;
  try {
    reading = await readAddressDocument(jpeg, text);
  } catch (error) {
    threw = String(error);
  }
  return score(doc, reading, { renderMs: rendered - started, readMs: performance.now() - rendered, threw });
}

/** Renders and reads every bill, `readers` at a time (one OCR worker each, English and French as the service's). */
const readAll = (docs: Planned[], s: Settings) =>
  withReaders(docs, { readers: s.readers, languages: ['eng', 'fra'], every: 25, noun: 'bills' }, (doc, text) => readOne(doc, text, s));

// ---- figures ----

interface Tally {
  bills: number;
  dateExact: number;
  dateRead: number;
  ageRight: number;
  issuerRight: number;
  addressRight: number;
  verdictRight: number;
  unreadable: number;
}

function tally(scored: Scored[]): Tally {
  const count = (pick: (x: Scored) => boolean) => scored.filter(pick).length;
  return {
    bills: scored.length,
    dateExact: count((x) => x.dateExact),
    dateRead: count((x) => x.dateRead),
    ageRight: count((x) => x.dateRead && x.ageRight),
    issuerRight: count((x) => x.issuerRight),
    addressRight: count((x) => x.addressRight),
    verdictRight: count((x) => x.verdictRight),
    unreadable: count((x) => x.unreadable),
  };
}

const HEADER = [
  '',
  'bills',
  'date exact',
  'date read',
  'age right (read)',
  'issuer right',
  'address right',
  'verdict expected',
  'unreadable',
];

const tallyRow = (label: string, t: Tally) => [
  label,
  String(t.bills),
  percent(t.dateExact, t.bills),
  percent(t.dateRead, t.bills),
  percent(t.ageRight, t.dateRead),
  percent(t.issuerRight, t.bills),
  percent(t.addressRight, t.bills),
  percent(t.verdictRight, t.bills),
  String(t.unreadable),
];

type Group = [label: string, member: (x: Scored) => boolean];

function printBy(title: string, scored: Scored[], groups: Group[]): void {
  const rows = groups.map(([label, member]) => [label, scored.filter(member)] as const).filter(([, xs]) => xs.length);
  printTable(title, [HEADER, ...rows.map(([label, xs]) => tallyRow(label, tally(xs))), tallyRow('all', tally(scored))]);
}

function printFigures(scored: Scored[], s: Settings): void {
  printBy(
    'by language × condition',
    scored,
    LANGS.flatMap((lang) =>
      s.conditions.map((condition): Group => [
        `${lang.toUpperCase()} ${condition}`,
        (x) => x.doc.bill.lang === lang && x.doc.condition === condition,
      ]),
    ),
  );
  printBy(
    'by condition',
    scored,
    s.conditions.map((condition): Group => [condition, (x) => x.doc.condition === condition]),
  );
  printBy(
    'by layout',
    scored,
    LAYOUTS.map((layout): Group => [layout, (x) => x.doc.bill.layout === layout]),
  );
}

function printErrors(scored: Scored[], count: number): void {
  const threw = scored.filter((x) => x.threw);
  if (threw.length)
    console.log(`\nthe reader threw on ${threw.length} bills (counted as unreadable), first #${threw[0].doc.index}: ${threw[0].threw}`);
  const wrongAge = scored.filter((x) => x.dateRead && !x.ageRight);
  const others = scored.filter((x) => !(x.dateRead && !x.ageRight) && (!x.dateExact || !x.issuerRight || !x.addressRight)).slice(0, count);
  for (const [title, xs] of [
    ['dates read wrong (documentAge wrong)', wrongAge],
    [`other wrong readings (first ${count})`, others],
  ] as const) {
    if (!xs.length) continue;
    console.log(`\n${title}:`);
    for (const x of xs) {
      const { bill } = x.doc;
      const f = x.reading?.fields;
      console.log(
        `  #${x.doc.index} ${bill.lang} ${x.doc.condition} ${bill.layout}: ${x.outcome?.decision ?? '—'} ${x.outcome?.reasons.join(',') ?? ''}`,
      );
      console.log(`    date    ${bill.dateLabel} ${bill.printedDate} (${bill.issueDate}) → ${f?.issueDate ?? '—'}`);
      console.log(`    issuer  ${bill.issuer} → ${f?.issuer ?? '—'}`);
      console.log(`    address ${bill.address.join(', ')} → ${f?.address ?? '—'}`);
      if (count) console.log(`    lines   ${x.reading?.lines.join(' / ') ?? '—'}`);
    }
  }
}

function printTimes(scored: Scored[], seconds: number, readers: number): void {
  const reads = scored.map((x) => x.readMs);
  const renders = scored.map((x) => x.renderMs);
  console.log(
    `\ntime: reading p50 ${quantile(reads, 0.5).toFixed(0)} ms, p95 ${quantile(reads, 0.95).toFixed(0)} ms; ` +
      `rendering p50 ${quantile(renders, 0.5).toFixed(0)} ms; ${scored.length} bills in ${seconds.toFixed(0)} s with ${readers} OCR worker(s)`,
  );
}

/** The targets of issue 29.5; met or not only on the whole report corpus (`—` on the tune corpus or a filtered one). */
function recordVerdicts(scored: Scored[], s: Settings): void {
  const comparable = s.corpus === 'report' && s.conditions.length === CONDITIONS.length;
  const judged = (ok: boolean) => (comparable ? ok : null);
  const all = tally(scored);
  verdict({
    item: '29.5',
    figure: 'documentAge right (bills whose date was read)',
    measured: percent(all.ageRight, all.dateRead),
    target: '100 %',
    met: judged(all.ageRight === all.dateRead),
  });
  for (const [kind, xs, share] of [
    ['clean', scored.filter((x) => x.doc.condition === 'clean'), 0.98],
    ['degraded', scored.filter((x) => x.doc.condition !== 'clean'), 0.9],
  ] as const) {
    const t = tally(xs);
    if (!t.bills) continue;
    for (const [figure, part] of [
      ['issue date exact', t.dateExact],
      ['issuer right', t.issuerRight],
      ['address right', t.addressRight],
    ] as const) {
      verdict({
        item: '29.5',
        figure: `${kind} bills: ${figure}`,
        measured: percent(part, t.bills),
        target: `≥ ${share * 100} %`,
        met: judged(part >= share * t.bills),
      });
    }
  }
}

function saveTruth(scored: Scored[], dir: string): void {
  const entries = scored.map((x) => ({
    file: fileName(x.doc),
    condition: x.doc.condition,
    bill: x.doc.bill,
    reading: x.reading,
    outcome: x.outcome,
  }));
  writeFileSync(path.join(dir, 'truth.json'), `${JSON.stringify(entries, null, 2)}\n`);
}

export async function run(): Promise<void> {
  const s = settings();
  if (s.save) mkdirSync(s.save, { recursive: true });
  const docs = planBills(SEEDS[s.corpus], s.bills, s.conditions);
  const ages = (kind: string) => docs.filter((d) => d.bill.age === kind).length;
  console.log(
    `${s.corpus} corpus: ${docs.length} bills (${docs.filter((d) => d.bill.lang === 'en').length} English, ${docs.filter((d) => d.bill.lang === 'fr').length} French; ` +
      `${ages('recent')} recent, ${ages('old')} older than three months, ${ages('future')} dated ahead), read on ${TODAY}; conditions ${s.conditions.join(', ')}`,
  );
  console.log(`right = token F1 ≥ ${RIGHT_F1} of the words read against those printed (issuer, address)`);
  const started = performance.now();
  const scored = await readAll(docs, s);
  printFigures(scored, s);
  printErrors(scored, s.errors);
  printTimes(scored, (performance.now() - started) / 1000, s.readers);
  if (s.save) saveTruth(scored, s.save);
  recordVerdicts(scored, s);
}
