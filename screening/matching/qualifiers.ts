import { countryCode } from '../countries.js';
import type { ListEntry, MatchExplanation, ScreeningQuery } from '../types.js';

/**
 * Qualifiers: date of birth, nationality and document number raise or lower the name score.
 * Effects (documented in screening/README.md):
 *   date of birth  exact +0.05 · same year/month when one side is partial +0.02 · same year other day −0.03
 *                  one year apart −0.05 · two years −0.10 · three or more −0.20 (none when the entry has no DOB)
 *   nationality    one of the entry's +0.03 · none of them −0.05
 *   document       same number (letters and digits only, case-insensitive) +0.15
 */
export const QUALIFIER_EFFECTS = {
  dobExact: 0.05,
  dobPartial: 0.02,
  dobSameYearOtherDay: -0.03,
  dobOneYear: -0.05,
  dobTwoYears: -0.1,
  dobFar: -0.2,
  nationalityMatch: 0.03,
  nationalityMismatch: -0.05,
  documentMatch: 0.15,
} as const;

export type Qualifier = MatchExplanation['qualifiers'][number];

/** Largest total raise the query's qualifiers could give (used to keep candidates near the threshold). */
export function maxBoost(q: ScreeningQuery): number {
  return (
    (q.dateOfBirth ? QUALIFIER_EFFECTS.dobExact : 0) +
    (q.nationality ? QUALIFIER_EFFECTS.nationalityMatch : 0) +
    (q.documentNumber ? QUALIFIER_EFFECTS.documentMatch : 0)
  );
}

interface PartialDate {
  y: number;
  m?: number;
  d?: number;
  text: string;
}

export function parsePartialDate(s: string): PartialDate | null {
  const t = s.trim();
  let m = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/.exec(t);
  if (m) return { y: +m[1], m: m[2] ? +m[2] : undefined, d: m[3] ? +m[3] : undefined, text: t };
  m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(t); // DD/MM/YYYY
  if (m) return { y: +m[3], m: +m[2], d: +m[1], text: t };
  return null;
}

function compareDob(query: PartialDate, listed: PartialDate): { effect: number; detail: string } {
  const yd = Math.abs(query.y - listed.y);
  if (yd === 0) {
    const bothFull = query.m && listed.m && query.d && listed.d;
    if (bothFull && query.m === listed.m && query.d === listed.d)
      return { effect: QUALIFIER_EFFECTS.dobExact, detail: `exact date of birth ${listed.text}` };
    if (query.m && listed.m && query.m !== listed.m)
      return { effect: QUALIFIER_EFFECTS.dobSameYearOtherDay, detail: `same year, other date (${query.text} vs ${listed.text})` };
    if (bothFull)
      return { effect: QUALIFIER_EFFECTS.dobSameYearOtherDay, detail: `same year, other date (${query.text} vs ${listed.text})` };
    return {
      effect: QUALIFIER_EFFECTS.dobPartial,
      detail: `same ${query.m && listed.m ? 'year and month' : 'year'} (${query.text} vs listed ${listed.text})`,
    };
  }
  if (yd === 1) return { effect: QUALIFIER_EFFECTS.dobOneYear, detail: `one year apart (${query.text} vs ${listed.text})` };
  if (yd === 2) return { effect: QUALIFIER_EFFECTS.dobTwoYears, detail: `two years apart (${query.text} vs ${listed.text})` };
  return { effect: QUALIFIER_EFFECTS.dobFar, detail: `date of birth differs (${query.text} vs ${listed.text})` };
}

const docKey = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

export function qualify(q: ScreeningQuery, entry: ListEntry): Qualifier[] {
  const out: Qualifier[] = [];
  if (q.dateOfBirth) {
    const qd = parsePartialDate(q.dateOfBirth);
    const listed = entry.datesOfBirth.map(parsePartialDate).filter((d): d is PartialDate => d !== null);
    if (qd && listed.length) {
      // the most favourable of the listed dates counts (lists give several possible dates)
      const best = listed.map((d) => compareDob(qd, d)).sort((a, b) => b.effect - a.effect)[0];
      out.push({ kind: 'dateOfBirth', effect: best.effect, detail: best.detail });
    }
  }
  if (q.nationality && entry.nationalities.length) {
    const qc = countryCode(q.nationality) ?? q.nationality.trim().toUpperCase();
    const listed = entry.nationalities.map((n) => countryCode(n) ?? n.toUpperCase());
    if (listed.includes(qc))
      out.push({ kind: 'nationality', effect: QUALIFIER_EFFECTS.nationalityMatch, detail: `nationality ${qc} listed` });
    else
      out.push({
        kind: 'nationality',
        effect: QUALIFIER_EFFECTS.nationalityMismatch,
        detail: `nationality ${qc} not among ${listed.join(', ')}`,
      });
  }
  if (q.documentNumber) {
    const qk = docKey(q.documentNumber);
    const doc = qk.length >= 4 ? entry.documents.find((d) => docKey(d.number) === qk) : undefined;
    if (doc)
      out.push({
        kind: 'documentNumber',
        effect: QUALIFIER_EFFECTS.documentMatch,
        detail: `${doc.type} ${doc.number}${doc.country ? ` (${doc.country})` : ''} matches`,
      });
  }
  return out;
}
