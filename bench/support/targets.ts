/** One figure a benchmark measured against the target an issue set for it. */
export interface Verdict {
  /** Where the target comes from, e.g. `14.1` (issue 14, item 1). */
  item: string;
  figure: string;
  measured: string;
  target: string;
  /** null: measured, but not under the target's conditions (e.g. another rate). */
  met: boolean | null;
}

const verdicts: Verdict[] = [];

/** Records a verdict for the table `npm run bench` prints at the end. */
export function verdict(v: Verdict): void {
  verdicts.push(v);
}

/** The one table of every target the benchmarks that ran measured (nothing when none did). */
export function printVerdicts(): void {
  if (!verdicts.length) return;
  console.log('\n=== targets ===');
  const rows = [
    ['item', 'figure', 'measured', 'target', 'met'],
    ...verdicts.map((v) => [v.item, v.figure, v.measured, v.target, v.met === null ? '—' : v.met ? 'yes' : 'no']),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
}
